package fit

import (
	"strings"
	"testing"
)

// The training plan refuses, naming the input, what cannot fit (450
// billion relations at 128 bytes each, beyond any machine's limit) and
// accepts the mammal closure.
func TestCheckRelationTraining(t *testing.T) {
	cfg := RelationDefaults()
	if err := CheckRelationTraining("chain", 30000, 30000*29999/2*1000, cfg); err == nil || !strings.Contains(err.Error(), "chain") {
		t.Errorf("450 billion relations: %v", err)
	}
	if err := CheckRelationTraining("builtin:mammals", 1182, 6542, cfg); err != nil {
		t.Errorf("mammals: %v", err)
	}
	if a, b := RelationTrainingBytes(100, 1000, cfg), RelationTrainingBytes(100, 2000, cfg); !(b > a) {
		t.Errorf("plan does not grow with the relations: %v, %v", a, b)
	}
}

// The GL memory plan counts the resident parameters and, with Adam, their
// two moments (per item d + d^2 values), in the backend's precision, and
// per batch the two gradient slots of every pair.
func TestResidentPlan(t *testing.T) {
	n, d := 82115, 10
	per := float64(n * (d + d*d))
	if got := ResidentBytes("gl64", n, d, true); got < 3*8*per {
		t.Errorf("gl64, Adam: %v bytes, less than the parameters and moments (%v)", got, 3*8*per)
	}
	if a, s := ResidentBytes("gl", n, d, true), ResidentBytes("gl", n, d, false); !(a > s && s >= 4*per) {
		t.Errorf("gl: %v bytes with Adam, %v with SGD", a, s)
	}
	if ResidentBytes("cpu", n, d, true) != 0 || ResidentBatchBytes("cpu", 1000, 50, d) != 0 {
		t.Error("the CPU backend plans GL buffers")
	}
	if got := ResidentBatchBytes("gl64", 1000, 50, d); got < 2*8*51000*float64(d+d*d) {
		t.Errorf("a batch plans %v bytes, less than its gradient slots", got)
	}
}
