package datasets

import (
	"reflect"
	"strings"
	"testing"
)

func TestCheckLabels(t *testing.T) {
	at := func(i int) place { return place{line: i + 2, col: 1} }
	tests := []struct {
		labels []string
		want   string // "" for no error
	}{
		{[]string{"a", "b", "c"}, ""},
		{[]string{"a", "b", "a"}, `f:4: column 1: duplicate label "a" (also on line 2)`},
		{[]string{"a", "", "c"}, "f:3: column 1: empty label (item 2)"},
		{[]string{"A", "a"}, ""}, // labels are case-sensitive
	}
	for _, test := range tests {
		err := checkLabels("f", test.labels, at)
		if test.want == "" && err != nil || test.want != "" && (err == nil || !strings.Contains(err.Error(), test.want)) {
			t.Errorf("checkLabels(%q) = %v, want %q", test.labels, err, test.want)
		}
	}
	if got := rowNumberLabels(3); !reflect.DeepEqual(got, []string{"1", "2", "3"}) {
		t.Errorf("rowNumberLabels(3) = %q", got)
	}
}
