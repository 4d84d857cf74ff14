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
