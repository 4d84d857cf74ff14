package emds_test

import (
	"testing"

	"burescope/engine/emds"
)

// A fit prepared without a backend (Prepare, then Prepared.NewOptimizer)
// is the fit NewOptimizer builds: after 20 iterations the same means,
// scales and stress, bit for bit; and Prepare rejects the options
// NewOptimizer rejects.
func TestPreparedIsNewOptimizer(t *testing.T) {
	n, dist := featureDistances(t, "../../assets/iris.csv", false)
	opt := emds.DefaultOptions()
	opt.MaxIter = 20
	want := run(t, newOpt(t, n, dist, opt, 2))
	p, err := emds.Prepare(n, dist, opt)
	if err != nil {
		t.Fatal(err)
	}
	o, err := p.NewOptimizer(emds.NewCPUBackend(2))
	if err != nil {
		t.Fatal(err)
	}
	got := run(t, o)
	for k := range want.Means {
		if got.Means[k] != want.Means[k] {
			t.Fatalf("mean %d: %v, NewOptimizer %v", k, got.Means[k], want.Means[k])
		}
	}
	for k := range want.Scales {
		if got.Scales[k] != want.Scales[k] {
			t.Fatalf("scale %d: %v, NewOptimizer %v", k, got.Scales[k], want.Scales[k])
		}
	}
	if got.Stress != want.Stress || got.ClassicalStress1 != want.ClassicalStress1 {
		t.Errorf("stress %v / classical %v, NewOptimizer %v / %v", got.Stress, got.ClassicalStress1, want.Stress, want.ClassicalStress1)
	}
	bad := opt
	bad.Dim = emds.MaxDim + 1
	if _, err := emds.Prepare(n, dist, bad); err == nil {
		t.Error("Prepare accepted dimension MaxDim+1")
	}
	if _, err := p.NewOptimizer(nil); err == nil {
		t.Error("NewOptimizer accepted a nil backend")
	}
}
