package datasets

import "testing"

func TestErrorFormat(t *testing.T) {
	tests := []struct {
		e    Error
		want string
	}{
		{Error{File: "pisa.csv", Line: 12, Column: 4, ColumnName: "math", Msg: `"abc" is not a number`}, `pisa.csv:12: column 4 ("math"): "abc" is not a number`},
		{Error{File: "d.csv", Line: 3, Column: 2, Msg: "-1 is negative"}, "d.csv:3: column 2: -1 is negative"},
		{Error{File: "d.csv", Line: 3, Msg: "3 values, want 4"}, "d.csv:3: 3 values, want 4"},
		{Error{File: "e.json", Msg: "file is empty"}, "e.json: file is empty"},
	}
	for _, test := range tests {
		if got := test.e.Error(); got != test.want {
			t.Errorf("got %q, want %q", got, test.want)
		}
	}
	long := quoteCell("abcdefghijklmnopqrstuvwxyzabcdefghijklmnopqrstuvwxyz")
	if want := `"abcdefghijklmnopqrstuvwxyzabcdefghijklmn..."`; long != want {
		t.Errorf("quoteCell of a long cell = %s, want %s", long, want)
	}
}
