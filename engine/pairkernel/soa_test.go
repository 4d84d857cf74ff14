package pairkernel

import (
	"math"
	"math/rand/v2"
	"testing"
)

// TestSoASettles checks that the structure-of-arrays solver settles the
// lanes it should (random, isotropic, near-singular and badly scaled
// matrices at every d it serves, alone or with other lanes) and leaves
// the others (zero, non-finite) with M formed for the per-lane solver,
// with the same traces as the per-lane solver to 1e-12 relative.
func TestSoASettles(t *testing.T) {
	soa := useSoA
	defer func() { useSoA = soa }()
	gens := []func(*rand.Rand, int) []float64{uniformLam(0.1, 2), constLam(1.5), logLam(1e-6, 1), scaled(uniformLam(0.1, 2), 1e-100), scaled(uniformLam(0.1, 2), 1e100)}
	for d := soaMinDim; d <= 20; d++ {
		rng := rand.New(rand.NewPCG(uint64(d), 41))
		ws, ref := NewWorkspace(d), NewWorkspace(d)
		a := spd(rng, uniformLam(0.2, 2)(rng, d))
		f, g := make([]float64, d*d), make([]float64, d*d)
		sh := ws.Factor(a, f, g)
		for trial := 0; trial < 8; trial++ {
			var bs [Lanes][]float64
			var use [Lanes]bool
			var want [Lanes]float64
			for k := 0; k < Lanes; k++ {
				bs[k] = spd(rng, gens[(trial+k)%len(gens)](rng, d))
				use[k] = true
				useSoA = false
				want[k] = ref.Eigen(f, sh, bs[k])
			}
			bad := trial % Lanes
			if trial >= Lanes {
				bs[bad] = make([]float64, d*d) // M = 0: trace 0
				if trial >= Lanes+2 {
					bs[bad][d+1] = math.NaN()
				}
			}
			var tr [Lanes]float64
			ws.eigenSoA(f, sh, &bs, &use, &tr)
			for k := 0; k < Lanes; k++ {
				if trial >= Lanes && k == bad {
					if !use[k] {
						t.Fatalf("d=%d trial %d: lane %d (zero or NaN M) settled, trace %v", d, trial, k, tr[k])
					}
					continue
				}
				if use[k] {
					t.Fatalf("d=%d trial %d: lane %d not settled", d, trial, k)
				}
				if math.Abs(tr[k]-want[k]) > 1e-12*want[k] {
					t.Fatalf("d=%d trial %d lane %d: trace %v, per-lane solver %v", d, trial, k, tr[k], want[k])
				}
			}
		}
	}
}
