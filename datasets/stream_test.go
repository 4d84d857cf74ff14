package datasets

import (
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

// TestStreamedDistancesMatchWholeFile is the streaming half of the
// no-out-of-memory promise: with the streaming threshold lowered to 0,
// every distance matrix below loads through the row-by-row reader and must
// give exactly what the whole-file reader gives (labels, triangle, kind),
// and every bad one the same error, or fall back to the whole-file reader.
func TestStreamedDistancesMatchWholeFile(t *testing.T) {
	cases := []struct{ name, text string }{
		{"plain", "0,1,2\n1,0,3\n2,3,0\n"},
		{"header", "a,b,c,d\n0,1,2,3\n1,0,4,5\n2,4,0,6\n3,5,6,0\n"},
		{"header and labels", ",a,b,c\na,0,1,2\nb,1,0,3\nc,2,3,0\n"},
		{"labels only", "a,0,1,2\nb,1,0,3\nc,2,3,0\n"},
		{"tsv quoted", "\t\"x y\"\tb\tc\n\"x y\"\t0\t1\t2\nb\t1\t0\t3\nc\t2\t3\t0\n"},
		{"semicolon crlf bom", "\xef\xbb\xbf0;1;2\r\n1;0;3\r\n2;3;0\r\n"},
		{"blank lines", "0,1,2\n\n1,0,3\n\n2,3,0\n\n"},
		{"asymmetric", "0,1,2\n1,0,3\n2,3.5,0\n"},
		{"negative", "0,1,2\n1,0,-3\n2,-3,0\n"},
		{"nonzero diagonal late", "0,1,2,3\n1,0,4,5\n2,4,0,6\n3,5,6,7\n"},
		{"not square", "0,1,2\n1,0,3\n2,3,0\n4,5,6\n"},
		{"too few rows", "0,1,2,3\n1,0,4,5\n2,4,0,6\n"},
		{"ragged late", "0,1,2,3\n1,0,4,5\n2,4,0,6\n3,5\n"},
		{"duplicate row labels", "a,0,1,2\na,1,0,3\nc,2,3,0\n"},
		{"feature table", "x,y\n1,2\n3,4\n5,6\n7,8\n"},
		{"relations", "a,b\nb,c\nc,d\n"},
	}
	dir := t.TempDir()
	for _, c := range cases {
		for _, opt := range []Options{{}, {Kind: KindDistances}, {Symmetrize: true}} {
			t.Run(c.name+"/"+string(opt.Kind), func(t *testing.T) {
				path := filepath.Join(dir, strings.ReplaceAll(c.name, " ", "_")+".csv")
				if err := os.WriteFile(path, []byte(c.text), 0o644); err != nil {
					t.Fatal(err)
				}
				whole, werr := Load(path, opt)
				saved := streamMin
				streamMin = 0
				streamed, serr := Load(path, opt)
				streamMin = saved
				if (werr == nil) != (serr == nil) || (werr != nil && werr.Error() != serr.Error()) {
					t.Fatalf("whole-file error %v, streamed error %v", werr, serr)
				}
				if werr != nil {
					return
				}
				if whole.Kind != streamed.Kind || !reflect.DeepEqual(whole.Labels, streamed.Labels) ||
					!reflect.DeepEqual(whole.Dist, streamed.Dist) || whole.Asymmetry != streamed.Asymmetry {
					t.Errorf("whole %v %v %v, streamed %v %v %v", whole.Kind, whole.Labels, whole.Dist, streamed.Kind, streamed.Labels, streamed.Dist)
				}
			})
		}
	}
}
