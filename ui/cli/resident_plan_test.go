package cli

import "testing"

// The GL memory plan counts the resident parameters and, with Adam, their
// two moments (per item d + d^2 values), in the backend's precision, and
// per batch the two gradient slots of every pair.
func TestResidentPlan(t *testing.T) {
	n, d := 82115, 10
	per := float64(n * (d + d*d))
	if got := residentBytes("gl64", n, d, true); got < 3*8*per {
		t.Errorf("gl64, Adam: %v bytes, less than the parameters and moments (%v)", got, 3*8*per)
	}
	if a, s := residentBytes("gl", n, d, true), residentBytes("gl", n, d, false); !(a > s && s >= 4*per) {
		t.Errorf("gl: %v bytes with Adam, %v with SGD", a, s)
	}
	if residentBytes("cpu", n, d, true) != 0 || accelBatchBytes("cpu", 1000, 50, d) != 0 {
		t.Error("the CPU backend plans GL buffers")
	}
	if got := accelBatchBytes("gl64", 1000, 50, d); got < 2*8*51000*float64(d+d*d) {
		t.Errorf("a batch plans %v bytes, less than its gradient slots", got)
	}
}
