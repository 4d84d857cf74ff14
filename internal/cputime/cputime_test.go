package cputime

import "testing"

// TestProcessGrows: the CPU time counts a busy loop of the calling
// goroutine (on unix; elsewhere it is 0 throughout).
func TestProcessGrows(t *testing.T) {
	t0 := Process()
	x := 1.0
	for i := 0; i < 50_000_000; i++ {
		x = x*1.0000001 + 1e-9
	}
	if x == 0 {
		t.Log(x)
	}
	if t1 := Process(); !(t1 > t0) && t0 != 0 {
		t.Errorf("CPU time %v after a busy loop, was %v", t1, t0)
	}
}
