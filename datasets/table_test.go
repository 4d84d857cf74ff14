package datasets

import (
	"math"
	"reflect"
	"strings"
	"testing"
)

// TestDelimiter checks the delimiter choice on first lines.
func TestDelimiter(t *testing.T) {
	tests := []struct {
		line string
		want byte
	}{
		{"a\tb\tc", '\t'},
		{"a,b,c", ','},
		{"a;b;c", ';'},
		{"\"x;y\",b,c", ','},
		{"Korea, Rep.\t1\t2", '\t'},
		{"single", ','},
		{"\n\n  \na;b,c;d", ';'},
	}
	for _, test := range tests {
		if got := detectDelimiter([]byte(test.line + "\n1,2,3\n")); got != test.want {
			t.Errorf("detectDelimiter(%q) = %q, want %q", test.line, got, test.want)
		}
	}
}

// TestReadTable checks record splitting and line numbers.
func TestReadTable(t *testing.T) {
	tests := []struct {
		name, text string
		lines      []int
		cells      [][]string
	}{
		{"CR line ends", "a,b\r1,2\r", []int{1, 2}, [][]string{{"a", "b"}, {"1", "2"}}},
		{"CRLF and blank lines", "a,b\r\n\r\n1,2\r\n", []int{1, 3}, [][]string{{"a", "b"}, {"1", "2"}}},
		{"quoted line break keeps line numbers", "a,\"b\nc\"\n1,2\n", []int{1, 3}, [][]string{{"a", "b\nc"}, {"1", "2"}}},
		{"tsv quotes", "\"a\"\t\"say \"\"hi\"\"\"\t\"\n1\t2\t3\n", []int{1, 2}, [][]string{{"a", `say "hi"`, `"`}, {"1", "2", "3"}}},
		{"lenient stray quote", "a\"b,c\n", []int{1}, [][]string{{`a"b`, "c"}}},
		{"BOM", "\ufeffx;y\n", []int{1}, [][]string{{"x", "y"}}},
	}
	for _, test := range tests {
		tab, err := readTable("t", []byte(test.text))
		if err != nil {
			t.Errorf("%s: %v", test.name, err)
			continue
		}
		var lines []int
		var cells [][]string
		for _, r := range tab.rows {
			lines = append(lines, r.line)
			cells = append(cells, r.cells)
		}
		if !reflect.DeepEqual(lines, test.lines) || !reflect.DeepEqual(cells, test.cells) {
			t.Errorf("%s: lines %v cells %q, want %v %q", test.name, lines, cells, test.lines, test.cells)
		}
	}
	if _, err := readTable("q.csv", []byte("\"\n")); err == nil || !strings.Contains(err.Error(), "q.csv: file has no data") {
		t.Errorf("only a quote: %v", err)
	}
}

func TestParseNumber(t *testing.T) {
	tests := []struct {
		s      string
		v      float64
		ok     bool
		finite bool
	}{
		{"1", 1, true, true},
		{"-2.5e-3", -2.5e-3, true, true},
		{"0x1p-2", 0.25, true, true},
		{"1e999", math.Inf(1), true, false},
		{"-1e999", math.Inf(-1), true, false},
		{"NaN", math.NaN(), true, false},
		{"inf", math.Inf(1), true, false},
		{"", 0, false, false},
		{"1,5", 0, false, false},
		{"NA", 0, false, false},
		{"1_000", 1000, true, true}, // Go literal syntax allows digit separators
	}
	for _, test := range tests {
		v, ok := parseNumber(test.s)
		if ok != test.ok || (ok && !(v == test.v || math.IsNaN(v) && math.IsNaN(test.v))) {
			t.Errorf("parseNumber(%q) = %v, %v; want %v, %v", test.s, v, ok, test.v, test.ok)
		}
		_, err := finiteCell("f", 1, 1, "", test.s)
		if (err == nil) != test.finite {
			t.Errorf("finiteCell(%q): error %v", test.s, err)
		}
	}
}
