package datasets

import (
	"math"
	"reflect"
	"strings"
	"testing"
)

// TestDistanceLayouts reads the same 3 x 3 matrix D = [[0,1,2],[1,0,1.5],
// [2,1.5,0]] (packed: 1, 2, 1.5) in every accepted layout.
func TestDistanceLayouts(t *testing.T) {
	want := []float64{1, 2, 1.5}
	abc := []string{"a", "b", "c"}
	nums := []string{"1", "2", "3"}
	tests := []struct {
		name, text string
		labels     []string
	}{
		{"header and label column", ",a,b,c\na,0,1,2\nb,1,0,1.5\nc,2,1.5,0\n", abc},
		{"header with corner word", "item,a,b,c\na,0,1,2\nb,1,0,1.5\nc,2,1.5,0\n", abc},
		{"header without corner", "a,b,c\na,0,1,2\nb,1,0,1.5\nc,2,1.5,0\n", abc},
		{"header only", "a,b,c\n0,1,2\n1,0,1.5\n2,1.5,0\n", abc},
		{"label column only", "a,0,1,2\nb,1,0,1.5\nc,2,1.5,0\n", abc},
		{"bare numbers", "0,1,2\n1,0,1.5\n2,1.5,0\n", nums},
		{"numeric header labels", "1,2,3\n0,1,2\n1,0,1.5\n2,1.5,0\n", nums},
		{"numeric row labels", "7,0,1,2\n8,1,0,1.5\n9,2,1.5,0\n", []string{"7", "8", "9"}},
		{"tsv with BOM and CRLF", "\ufeff\ta\tb\tc\r\na\t0\t1\t2\r\nb\t1\t0\t1.5\r\nc\t2\t1.5\t0\r\n", abc},
		{"semicolons, quotes, blank lines", "\n;\"a\";\"b\";\"c\"\n\n\"a\";0;1;2\n\"b\";1;0;1.5\n\"c\";2;1.5;0\n\n", abc},
		{"spaces around cells", " , a , b , c \n a , 0 , 1 , 2 \n b , 1 , 0 , 1.5\n c , 2 , 1.5 , 0\n", abc},
		{"float32-precision asymmetry within tolerance", "0,1,2\n1.0000001,0,1.5\n2,1.5,0\n", nums},
	}
	for _, test := range tests {
		ds, err := LoadBytes([]byte(test.text), "d.csv", Options{})
		if err != nil {
			t.Errorf("%s: %v", test.name, err)
			continue
		}
		if ds.Kind != KindDistances || !reflect.DeepEqual(ds.Labels, test.labels) {
			t.Errorf("%s: kind %s labels %q", test.name, ds.Kind, ds.Labels)
		}
		for k := range want {
			if !(math.Abs(ds.Dist[k]-want[k]) <= 1e-7) {
				t.Errorf("%s: Dist = %v, want %v", test.name, ds.Dist, want)
				break
			}
		}
	}
}

func TestSymmetrize(t *testing.T) {
	text := "0,1,2\n3,0,1.5\n2,1.5,0\n"
	if _, err := LoadBytes([]byte(text), "d.csv", Options{Kind: KindDistances}); err == nil || !strings.Contains(err.Error(), "not symmetric") {
		t.Fatalf("asymmetric matrix: error %v", err)
	}
	ds, err := LoadBytes([]byte(text), "d.csv", Options{Kind: KindDistances, Symmetrize: true})
	if err != nil {
		t.Fatal(err)
	}
	// (1 + 3) / 2 = 2 for the pair (0, 1).
	if want := []float64{2, 2, 1.5}; !reflect.DeepEqual(ds.Dist, want) {
		t.Errorf("symmetrised Dist %v, want %v", ds.Dist, want)
	}
}

// TestDistanceTolerances checks both sides of SymmetryTol (1e-6 relative)
// and DiagonalTol (1e-9 times the largest entry, here 2), in the loader's
// check and in the auto-detection of a distance matrix (zeroDiagonal). The
// values straddle each bound by a factor 10 to 100, so a bound off by a
// factor 1000 fails.
func TestDistanceTolerances(t *testing.T) {
	tests := []struct {
		name, text string
		kind       Kind // forced kind; "" auto-detects
		ok         bool
		errPart    string
	}{
		{"asymmetry 1e-7 accepted", "0,1,2\n1.0000001,0,1.5\n2,1.5,0\n", KindDistances, true, ""},
		{"asymmetry 1e-5 rejected", "0,1,2\n1.00001,0,1.5\n2,1.5,0\n", KindDistances, false, "not symmetric"},
		{"asymmetry 1e-4 rejected", "0,1,2\n1,0,1.5\n2,1.5001,0\n", KindDistances, false, "not symmetric"},
		{"diagonal 1e-10 accepted", "0,1,2\n1,1e-10,1.5\n2,1.5,0\n", KindDistances, true, ""},
		{"diagonal 1e-7 rejected", "0,1,2\n1,1e-7,1.5\n2,1.5,0\n", KindDistances, false, "diagonal entry"},
		{"diagonal 1e-10 detected", "0,1,2\n1,1e-10,1.5\n2,1.5,0\n", "", true, ""},
		{"diagonal 1e-7 not detected", "0,1,2\n1,1e-7,1.5\n2,1.5,0\n", "", false, ""},
	}
	for _, test := range tests {
		ds, err := LoadBytes([]byte(test.text), "d.csv", Options{Kind: test.kind})
		switch {
		case test.ok && err != nil:
			t.Errorf("%s: %v", test.name, err)
		case test.ok && ds.Kind != KindDistances:
			t.Errorf("%s: kind %s, want %s", test.name, ds.Kind, KindDistances)
		case !test.ok && test.errPart != "" && (err == nil || !strings.Contains(err.Error(), test.errPart)):
			t.Errorf("%s: error %v, want one containing %q", test.name, err, test.errPart)
		case !test.ok && test.errPart == "" && (err != nil || ds.Kind == KindDistances):
			// Not a distance matrix: read as a table of features instead.
			t.Errorf("%s: detected as a distance matrix (error %v)", test.name, err)
		}
	}
}
