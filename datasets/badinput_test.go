package datasets

import (
	"errors"
	"fmt"
	"strings"
	"testing"
)

// TestBadInputs: every malformed input gives an *Error naming the file,
// line, column and problem (the expected substrings below).
func TestBadInputs(t *testing.T) {
	const emb = `{"format":"burescope-embedding/1","family":"gaussian","dim":2,"labels":["a","b"],"means":[[0,0],[1,1]],`
	dist := Options{Kind: KindDistances}
	feat := Options{Kind: KindFeatures}
	rel := Options{Kind: KindRelations}
	tests := []struct {
		name, file, text string
		opt              Options
		want             []string
	}{
		// Any kind.
		{"empty", "e.csv", "", Options{}, []string{"e.csv: file is empty"}},
		{"blank", "e.csv", " \n\r\n\t\n", dist, []string{"e.csv: file is empty"}},
		{"binary junk", "j.csv", "\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR", Options{}, []string{"j.csv:3: binary data"}},
		{"latin-1", "l.csv", "name,v\ncaf\xe9,1\nb,2\n", Options{}, []string{"l.csv:2: invalid UTF-8"}},
		{"utf-16", "u.csv", "\xff\xfea\x00,\x00", Options{}, []string{"u.csv: file is UTF-16"}},
		{"bad kind", "k.csv", "0,1\n1,0\n", Options{Kind: "matrix"}, []string{`unknown kind "matrix"`}},

		// Distance matrices.
		{"ragged rows", "d.csv", ",a,b,c\na,0,1,2\nb,1,0\nc,2,1.5,0\n", Options{}, []string{"d.csv:3: 3 fields, want 4"}},
		{"not square", "d.csv", "0,1,2\n1,0,3\n", dist, []string{"d.csv:1: 3 values, want 2", "square"}},
		{"text in numbers", "d.csv", ",a,b\na,0,x\nb,1,0\n", dist, []string{`d.csv:2: column 3 ("b"): "x" is not a number`}},
		{"NaN", "d.csv", "0,NaN\nNaN,0\n", Options{}, []string{`d.csv:1: column 2: "NaN" is not a finite number`}},
		{"Inf", "d.csv", "a,b\n0,1\n+Inf,0\n", dist, []string{`d.csv:3: column 1 ("a"): "+Inf" is not a finite number`}},
		{"overflow", "d.csv", "0,1e999\n1e999,0\n", dist, []string{`d.csv:1: column 2: "1e999" is not a finite number`}},
		{"empty cell", "d.csv", "0,\n1,0\n", dist, []string{"d.csv:1: column 2: empty value"}},
		{"negative", "d.csv", "0,-1\n-1,0\n", Options{}, []string{"d.csv:1: column 2: -1 is negative"}},
		{"asymmetric", "d.csv", ",a,b\na,0,1\nb,2,0\n", Options{}, []string{`d.csv:3: column 2 ("a"): 2 differs from 1 on line 2, column 3`, "not symmetric"}},
		{"non-zero diagonal", "d.csv", "0,1\n1,0.5\n", dist, []string{"d.csv:2: column 2: diagonal entry 0.5 is not 0"}},
		{"one row", "d.csv", "0\n", dist, []string{"d.csv: a distance matrix needs at least 2 rows, found 1"}},
		{"duplicate labels", "d.csv", ",a,a\na,0,1\na,1,0\n", Options{}, []string{`d.csv:1: column 3: duplicate label "a" (also on column 2)`}},
		{"empty label", "d.csv", "a,,c\n0,1,2\n1,0,1\n2,1,0\n", dist, []string{"d.csv:1: column 2: empty label"}},
		{"row and column labels disagree", "d.csv", ",a,b\na,0,1\nc,1,0\n", Options{}, []string{`d.csv:3: column 1: row label "c" differs from column label "b"`}},
		{"header length", "d.csv", "a,b,c,d,e\n0,1\n1,0\n", dist, []string{"d.csv:1: header has 5 labels but the matrix has 2 rows"}},

		// Feature tables.
		{"ragged feature rows", "f.csv", "a,b\n1,2\n3\n", Options{}, []string{"f.csv:3: 1 fields, want 2 as on line 1"}},
		{"text in features", "pisa.csv", "country,code,math\nA,AAA,1\nB,BBB,abc\nC,CCC,3\n", Options{}, []string{`pisa.csv:3: column 3 ("math"): "abc" is not a number`}},
		{"NaN feature", "f.csv", "name,v\nA,1\nB,nan\nC,2\n", Options{}, []string{`f.csv:3: column 2 ("v"): "nan" is not a finite number`}},
		{"missing feature", "f.csv", "name,v,w\nA,1,2\nB,,3\nC,2,4\n", Options{}, []string{`f.csv:3: column 2 ("v"): empty value`}},
		{"one data row", "f.csv", "a,b\n1,2\n", feat, []string{"f.csv: a feature table needs at least 2 rows of data, found 1"}},
		{"header only", "f.csv", "a,b\n", feat, []string{"f.csv: a feature table needs at least 2 rows"}},
		{"duplicate labels in label column", "f.csv", "name,v\nA,1\nB,2\nA,3\n", Options{LabelColumn: "name"}, []string{`f.csv:4: column 1: duplicate label "A" (also on line 2)`}},
		{"no numeric column", "f.csv", "a,b,c\nx,y,1\nz,w,2\n", Options{Kind: KindFeatures, LabelColumn: "a", ClassColumn: "c"}, []string{"f.csv: no numeric feature columns"}},
		{"unknown label column", "f.csv", "a,b\nx,1\ny,2\n", Options{LabelColumn: "zz"}, []string{`f.csv: no label column "zz" (columns: a, b)`}},
		{"label is class", "f.csv", "a,b\nx,1\ny,2\n", Options{LabelColumn: "a", ClassColumn: "a"}, []string{"both the label and the class"}},
		{"empty class", "f.csv", "a,k,v\nx,p,1\ny,,2\nz,q,3\n", Options{ClassColumn: "k"}, []string{`f.csv:3: column 2 ("k"): empty class`}},

		// Relations.
		{"cycle", "r.tsv", "a\tb\nb\tc\nc\ta\n", rel, []string{"r.tsv:1: the relations contain a cycle through"}},
		{"disconnected", "r.tsv", "a\tb\nc\td\n", rel, []string{`r.tsv: the relation graph is not connected: no path links "a" (line 1) and "c" (line 2)`}},
		{"one column", "r.tsv", "a\nb\n", rel, []string{"r.tsv:1: 1 field, want 2 (child and ancestor)"}},
		{"empty name", "r.csv", "a,b\n,c\n", rel, []string{"r.csv:2: column 1: empty name"}},
		{"one item", "r.tsv", "a\ta\n", rel, []string{"r.tsv: the relations name 1 distinct item(s)"}},

		// Embedding files.
		{"json syntax", "e.json", "{\"format\": \"burescope-embedding/1\",\n \"dim\": 2,,}", Options{}, []string{"e.json:2:11: invalid JSON: invalid character ','"}},
		{"json truncated", "e.json", `{"format": "burescope-embedding/1", "dim": [`, Options{}, []string{"e.json: invalid JSON"}},
		{"json wrong type", "e.json", "{\n\"dim\": \"two\"}", Options{}, []string{`e.json:2:12: "dim": JSON string where an integer was expected`}},
		{"json not an object", "e.json", "[1,2]", Options{}, []string{"e.json:1:", "an object"}},
		{"json trailing data", "e.json", emb + `"covariances":[[[1,0],[0,1]],[[1,0],[0,1]]]} x`, Options{}, []string{"e.json:1: unexpected data after the JSON object"}},
		{"no format", "e.json", "{}", Options{}, []string{`e.json: missing "format"`}},
		{"wrong format", "e.json", `{"format":"other/2"}`, Options{}, []string{`e.json: "format" is "other/2"`}},
		{"dim 0", "e.json", `{"format":"burescope-embedding/1","dim":0}`, Options{}, []string{`e.json: "dim" is 0, want 1 to 128`}},
		{"unknown family", "e.json", `{"format":"burescope-embedding/1","dim":2,"family":"cauchy"}`, Options{}, []string{`e.json: "family": unknown family "cauchy"`}},
		{"custom without tau", "e.json", `{"format":"burescope-embedding/1","dim":2,"family":"custom"}`, Options{}, []string{`e.json: "tau" is required for the custom family`}},
		{"tau mismatch", "e.json", `{"format":"burescope-embedding/1","dim":2,"family":"uniform","tau":1}`, Options{}, []string{`e.json: "tau" is 1 but the uniform family in dimension 2 has tau = 0.25`}},
		{"no labels", "e.json", `{"format":"burescope-embedding/1","dim":2,"family":"gaussian"}`, Options{}, []string{`e.json: "labels" is missing or empty`}},
		{"duplicate json labels", "e.json", `{"format":"burescope-embedding/1","dim":2,"family":"gaussian","labels":["a","b","a"]}`, Options{}, []string{`e.json:1: labels[2] ("a"): duplicate label (also labels[0])`}},
		{"means count", "e.json", `{"format":"burescope-embedding/1","dim":2,"family":"gaussian","labels":["a","b"],"means":[[0,0]]}`, Options{}, []string{`e.json: "means" has 1 rows, want 2`}},
		{"mean length", "e.json", `{"format":"burescope-embedding/1","dim":2,"family":"gaussian","labels":["a","b"],"means":[[0,0],[1,2,3]]}`, Options{}, []string{`e.json:1: means[1] ("b"): 3 values, want dim = 2`}},
		{"null in mean", "e.json", `{"format":"burescope-embedding/1","dim":2,"family":"gaussian","labels":["a","b"],"means":[[0,null],[1,2]]}`, Options{}, []string{`e.json:1: means[0] ("a")[1]: null is not a number`}},
		{"huge mean", "e.json", `{"format":"burescope-embedding/1","dim":2,"family":"gaussian","labels":["a","b"],"means":[[0,0],[1e999,2]]}`, Options{}, []string{`e.json:1: means[1] ("b")[0]: 1e999 is out of the float64 range`}},
		{"no scales", "e.json", emb + `"x":1}`, Options{}, []string{`e.json: needs "covariances"`}},
		{"both scales", "e.json", emb + `"covariances":[],"factors":[]}`, Options{}, []string{"both \"covariances\" and \"factors\""}},
		{"covariance count", "e.json", emb + `"covariances":[[[1,0],[0,1]]]}`, Options{}, []string{`e.json: "covariances" has 1 matrices, want 2`}},
		{"covariance shape", "e.json", emb + `"covariances":[[[1,0],[0,1]],[[1,0],[0]]]}`, Options{}, []string{`e.json:1: covariances[1] ("b"): row 1 has 1 values, want dim = 2`}},
		{"covariance rows", "e.json", emb + `"covariances":[[[1,0],[0,1]],[[1,0]]]}`, Options{}, []string{`e.json:1: covariances[1] ("b"): 1 rows, want dim = 2`}},
		{"asymmetric covariance", "e.json", emb + `"covariances":[[[1,0],[0,1]],[[1,0.5],[0.2,1]]]}`, Options{}, []string{`e.json:1: covariances[1] ("b"): not symmetric: [0][1] = 0.5 but [1][0] = 0.2`}},
		{"non-PSD covariance", "e.json", emb + `"covariances":[[[1,2],[2,1]],[[1,0],[0,1]]]}`, Options{}, []string{`e.json:1: covariances[0] ("a"): not positive semi-definite: eigenvalue -1`}},
		{"ragged factor", "e.json", emb + `"factors":[[[1,0],[0,1]],[[1,0],[0]]]}`, Options{}, []string{`e.json:1: factors[1] ("b"): row 1 has 1 values but row 0 has 2`}},
		{"factor rows", "e.json", emb + `"factors":[[[1,0],[0,1]],[[1,0]]]}`, Options{}, []string{`e.json:1: factors[1] ("b"): 1 rows, want dim = 2`}},

		// Labels must survive a round trip: no control characters.
		{"NUL in json label", "e.json", `{"format":"burescope-embedding/1","dim":2,"family":"gaussian","labels":["a\u0000b","c"]}`, Options{}, []string{`e.json:1: labels[0] ("a\x00b"): contains the control character U+0000`}},
		{"tab in json label", "e.json", `{"format":"burescope-embedding/1","dim":2,"family":"gaussian","labels":["a","x\ty"]}`, Options{}, []string{`labels[1] ("x\ty"): contains the control character U+0009`}},
		{"escape in csv header label", "d.csv", ",a,\x1b[31mb\na,0,1\n\x1b[31mb,1,0\n", Options{}, []string{`d.csv:1: column 3: label "\x1b[31mb" contains the control character U+001B`}},
		{"C1 control in relation name", "r.tsv", "a\tb\u0080\n", rel, []string{`r.tsv:1: column 2: name "b\u0080" contains the control character U+0080`}},
		{"bell in feature label", "f.csv", "name,v\nA\a,1\nB,2\nC,3\n", Options{LabelColumn: "name"}, []string{`f.csv:2: column 1: label "A\a" contains the control character U+0007`}},

		// Messages say what is wrong.
		{"json char position", "e.json", "{\n  \"format\": \"burescope-embedding/1\",\n  \"dim\": [1,, 2]}", Options{}, []string{"e.json:3:13: invalid JSON: invalid character ','"}},
	}
	for _, test := range tests {
		ds, err := LoadBytes([]byte(test.text), test.file, test.opt)
		if err == nil {
			t.Errorf("%s: no error; got %+v", test.name, ds)
			continue
		}
		for _, w := range test.want {
			if !strings.Contains(err.Error(), w) {
				t.Errorf("%s: error %q does not contain %q", test.name, err, w)
			}
		}
		var fe *Error
		if test.name != "bad kind" && !errors.As(err, &fe) {
			t.Errorf("%s: error %T is not an *Error", test.name, err)
		}
	}
}

// TestBadWordNetInputs: the bad-input corpus of WordNet databases. Each
// is refused with an *Error naming the file, the line where one is
// meaningful, and the synset or lemma at fault.
func TestBadWordNetInputs(t *testing.T) {
	line := func(off int, lemma string, parents ...int) string {
		s := fmt.Sprintf("%08d 03 n 01 %s 0 %03d", off, lemma, len(parents))
		for _, p := range parents {
			s += fmt.Sprintf(" @ %08d n 0000", p)
		}
		return s + " | g\n"
	}
	idx := func(lemmas ...string) string {
		var b strings.Builder
		for i, l := range lemmas {
			fmt.Fprintf(&b, "%s n 1 0 1 0 %08d\n", strings.ToLower(l), 10+i)
		}
		return b.String()
	}
	var chain, chainIdx strings.Builder
	for i := 0; i < 30000; i++ {
		var parents []int
		if i > 0 {
			parents = []int{10 + i - 1}
		}
		chain.WriteString(line(10+i, fmt.Sprintf("s%d", i), parents...))
		fmt.Fprintf(&chainIdx, "s%d n 1 0 1 0 %08d\n", i, 10+i)
	}
	tests := []struct {
		name, data, index, root string
		want                    []string
	}{
		{"30,000-long chain", chain.String(), chainIdx.String(), "s0.n.01", []string{"wordnet:fuzz", "s0.n.01", "pairs", "refused before it is built"}},
		{"cycle through the root", line(10, "animal") + line(11, "mammal", 10, 12) + line(12, "placental", 11), idx("animal", "mammal", "placental"), "mammal.n.01",
			[]string{"data.noun:2", "cycle through the root mammal.n.01", "placental.n.01"}},
		{"self-loop", line(10, "entity") + line(11, "puppy", 12) + line(12, "dog", 10, 12), idx("entity", "puppy", "dog"), "entity.n.01",
			[]string{"data.noun:3", "dog.n.01", "its own hypernym"}},
		{"cycle", line(10, "entity") + line(11, "a", 10, 12) + line(12, "b", 11), idx("entity", "a", "b"), "entity.n.01",
			[]string{"data.noun:", "cycle: a.n.01 -> b.n.01 -> a.n.01"}},
		{"control character in a lemma", line(10, "entity") + line(11, "d\x01og", 10), idx("entity", "d\x01og"), "",
			[]string{"data.noun:2", `lemma "d\x01og"`, "control character"}},
		{"non-UTF-8 lemma", line(10, "entity") + line(11, "caf\xe9", 10), idx("entity", "caf\xe9"), "",
			[]string{"data.noun:2", "caf", "not valid UTF-8"}},
		{"pointer count that overflows", "00000010 03 n 01 a 0 9223372036854775807 @ 00000010 n 0000\n", idx("a"), "",
			[]string{"data.noun:1", "pointers announced"}},
		{"index counts that overflow", line(10, "entity") + line(11, "dog", 10), "entity n 1 9223372036854775805 00000010\ndog n 1 0 1 0 00000011\n", "",
			[]string{"index.noun:1", "announced"}},
		{"control character in index.noun", line(10, "entity") + line(11, "dog", 10), "entity n 1 0 1 0 00000010\nd\x1bog n 1 0 1 0 00000011\n", "",
			[]string{"index.noun:2", `lemma "d\x1bog"`}},
	}
	for _, tc := range tests {
		_, err := wordNetFromBytes("wordnet:fuzz", "data.noun", "index.noun", []byte(tc.data), []byte(tc.index), tc.root)
		if err == nil {
			t.Errorf("%s: no error", tc.name)
			continue
		}
		for _, w := range tc.want {
			if !strings.Contains(err.Error(), w) {
				t.Errorf("%s: error %q does not contain %q", tc.name, err, w)
			}
		}
		var fe *Error
		if !errors.As(err, &fe) {
			t.Errorf("%s: error %T is not an *Error", tc.name, err)
		}
	}
	// Streams and sizes (readWordNetStream): NUL at once, a line without
	// an end after maxWordNetLine.
	for _, tc := range []struct{ name, text, want string }{
		{"NUL", "00000010 03 n 01 a\x00 0 000\n", "data.noun:1: NUL byte"},
		{"no line end", strings.Repeat("x", maxWordNetLine+10), "data.noun:1: line longer than"},
	} {
		if _, err := readWordNetStream("data.noun", strings.NewReader(tc.text)); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: %v", tc.name, err)
		}
	}
}

// TestBadFeatureScales: feature tables whose distances would all be 0.
func TestBadFeatureScales(t *testing.T) {
	for _, text := range []string{"x,y\n1,2\n1,2\n1,2\n", "x\n0\n0\n"} {
		if _, err := LoadBytes([]byte(text), "f.csv", Options{Kind: KindFeatures}); err == nil || !strings.Contains(err.Error(), "every distance is 0") {
			t.Errorf("%q: %v", text, err)
		}
	}
}
