package launch

import (
	"reflect"
	"testing"
)

// TestLaterRunsOnce: the work added runs in order at the first Run, and
// never again.
func TestLaterRunsOnce(t *testing.T) {
	var l Later
	var got []int
	l.Add(func() { got = append(got, 1) })
	l.Add(func() { got = append(got, 2) })
	l.Run()
	l.Run()
	if want := []int{1, 2}; !reflect.DeepEqual(got, want) {
		t.Errorf("ran %v, want %v", got, want)
	}
}
