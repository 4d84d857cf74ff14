package pairkernel

import (
	"fmt"
	"math"
	"math/rand/v2"
	"testing"
)

// TestClosed5Bands measures the d = 5 closed form against gonum per band
// of e5 = det(M)^{1/2} / tr(M)^{5/2} (the closed form forced on every
// lane, whatever closed5MinE5 says), next to the eigensolver on the same
// pairs, and checks that the bands the closed form takes are within
// 1e-12 (trace) and 1e-10 (T^{BA}, M^{1/2}) relative.
func TestClosed5Bands(t *testing.T) {
	const d = 5
	minE5 := closed5MinE5
	defer func(m float64, c bool) { closed5MinE5, useClosed5 = m, c }(closed5MinE5, useClosed5)
	type worst struct {
		n, nEig                      int
		tr, root, tba, eigTr, eigTba float64
	}
	bands := map[int]*worst{}
	rng := rand.New(rand.NewPCG(5, 77))
	ws, ref := NewWorkspace(d), NewWorkspace(d)
	f, g := make([]float64, d*d), make([]float64, d*d)
	for trial := 0; trial < 3000; trial++ {
		lo := math.Pow(10, -6*rng.Float64())
		a := spd(rng, logLam(lo, 1)(rng, d))
		b := spd(rng, logLam(lo, 1)(rng, d))
		sh := ws.Factor(a, f, g)
		if sh != Lower {
			continue
		}
		closed5MinE5, useClosed5 = 0, true
		got := ws.RootLanes(f, sh, &[Lanes][]float64{b}, 1)[0]
		e5 := ws.c5.e5[0]
		if e5 <= 0 {
			continue
		}
		band := int(math.Floor(math.Log10(e5)))
		w := bands[band]
		if w == nil {
			w = &worst{}
			bands[band] = w
		}
		tr, tab, tba, _ := reference(t, a, b, d)
		if ws.ln[0].closed {
			w.n++
			out := make([]float64, d*d)
			ws.AddInvMapLane(0, out, f, sh, 1)
			mirror(out, d)
			w.tba = math.Max(w.tba, relErr(out, tba))
			s, out2 := make([]float64, d*d), make([]float64, d*d)
			ws.AddRootLane(0, s, 1)
			ws.AddSandwich(out2, g, sh, s, 1)
			mirror(out2, d)
			w.root = math.Max(w.root, relErr(out2, tab))
			w.tr = math.Max(w.tr, math.Abs(got-tr)/tr)
		}
		useClosed5 = false
		te := ref.RootLanes(f, sh, &[Lanes][]float64{b}, 1)[0]
		out := make([]float64, d*d)
		ref.AddInvMapLane(0, out, f, sh, 1)
		mirror(out, d)
		w.nEig++
		w.eigTba = math.Max(w.eigTba, relErr(out, tba))
		w.eigTr = math.Max(w.eigTr, math.Abs(te-tr)/tr)
	}
	for band := -8; band <= 0; band++ {
		w := bands[band]
		if w == nil {
			continue
		}
		t.Logf("e5 in [1e%d, 1e%d): %d pairs, %d closed: trace %.1e (eigensolver %.1e), T^AB %.1e, T^BA %.1e (eigensolver %.1e)",
			band, band+1, w.nEig, w.n, w.tr, w.eigTr, w.root, w.tba, w.eigTba)
		if float64(band) >= math.Log10(minE5) && (w.tr > 1e-12 || w.tba > 1e-10 || w.root > 1e-10) {
			t.Errorf("band 1e%d: the closed form is off: trace %g, T^AB %g, T^BA %g", band, w.tr, w.root, w.tba)
		}
	}
}

// TestClosedWide checks every lane of RootLanesWide at d = 4 and 5
// (n = 1..Wide, a zero, a non-finite and an ill-conditioned matrix among
// them; a Cholesky factor, and at d = 4 a singular A's Root factor too)
// against the lone RootLanes call, bit for bit, and that well-conditioned
// lanes take the closed form.
func TestClosedWide(t *testing.T) {
	for _, d := range []int{4, 5} {
		for _, singular := range []bool{false, true} {
			if singular && d != 4 {
				continue
			}
			checkClosedWide(t, d, singular)
		}
	}
}

// checkClosedWide is TestClosedWide at one d, with A singular (a Root
// factor) or not.
func checkClosedWide(t *testing.T, d int, singular bool) {
	rng := rand.New(rand.NewPCG(uint64(d), 41))
	ws, ref := NewWorkspace(d), NewWorkspace(d)
	la := uniformLam(0.2, 2)(rng, d)
	if singular {
		la[0] = 0
	}
	a := spd(rng, la)
	f, g := make([]float64, d*d), make([]float64, d*d)
	sh := ws.Factor(a, f, g)
	if (sh == Root) != singular {
		t.Fatalf("d=%d: shape %v", d, sh)
	}
	gens := []func(*rand.Rand, int) []float64{uniformLam(0.1, 2), logLam(1e-6, 1), constLam(1.5), rankLam(1), scaled(uniformLam(0.1, 2), 1e100)}
	for n := 1; n <= ws.Wide(); n++ {
		var bs [WideLanes][]float64
		for k := 0; k < n; k++ {
			bs[k] = spd(rng, gens[(k+n)%len(gens)](rng, d))
		}
		if n >= 6 {
			bs[5] = make([]float64, d*d)
		}
		if n == WideLanes {
			bs[6][1] = math.NaN()
		}
		got := ws.RootLanesWide(f, sh, &bs, n)
		for k := 0; k < n; k++ {
			want := ref.RootLanes(f, sh, &[Lanes][]float64{bs[k]}, 1)[0]
			name := fmt.Sprintf("d=%d singular %v n=%d lane %d", d, singular, n, k)
			if ws.ln[k].closed != ref.ln[0].closed {
				t.Fatalf("%s: closed %v, alone %v", name, ws.ln[k].closed, ref.ln[0].closed)
			}
			if (k+n)%len(gens) == 0 && ws.ln[k].closed == singular {
				t.Errorf("%s: closed %v", name, ws.ln[k].closed)
			}
			if math.Float64bits(got[k]) != math.Float64bits(want) && !(math.IsNaN(got[k]) && math.IsNaN(want)) {
				t.Fatalf("%s: trace %v, alone %v", name, got[k], want)
			}
			if math.IsNaN(want) {
				continue
			}
			s1, s2 := make([]float64, d*d), make([]float64, d*d)
			ws.AddRootLane(k, s1, 0.7)
			ref.AddRootLane(0, s2, 0.7)
			ws.AddInvMapLane(k, s1, f, sh, -0.3)
			ref.AddInvMapLane(0, s2, f, sh, -0.3)
			for q := range s1 {
				if math.Float64bits(s1[q]) != math.Float64bits(s2[q]) {
					t.Fatalf("%s: maps differ at %d: %v, %v", name, q, s1[q], s2[q])
				}
			}
		}
	}
}

// TestClosed5Trace checks TraceRootLanes at d = 5 against RootLanes (the
// same trace, bit for bit, on the lanes the closed form takes; within
// 1e-12 elsewhere) and that it leaves the maps of an earlier RootLanes
// alone.
func TestClosed5Trace(t *testing.T) {
	const d = 5
	rng := rand.New(rand.NewPCG(5, 61))
	ws, tw := NewWorkspace(d), NewWorkspace(d)
	f, g := make([]float64, d*d), make([]float64, d*d)
	gens := []func(*rand.Rand, int) []float64{uniformLam(0.1, 2), logLam(1e-6, 1), constLam(1.5), rankLam(1), scaled(uniformLam(0.1, 2), 1e100)}
	for trial := 0; trial < 40; trial++ {
		a := spd(rng, uniformLam(0.1, 2)(rng, d))
		sh := ws.Factor(a, f, g)
		var bs, bs2 [Lanes][]float64
		for k := range bs {
			bs[k] = spd(rng, gens[(trial+k)%len(gens)](rng, d))
			bs2[k] = spd(rng, gens[(trial+k+1)%len(gens)](rng, d))
		}
		n := 1 + trial%Lanes
		want := ws.RootLanes(f, sh, &bs, n)
		var before [Lanes][]float64
		for k := 0; k < n; k++ {
			before[k] = make([]float64, d*d)
			ws.AddRootLane(k, before[k], 1)
			ws.AddInvMapLane(k, before[k], f, sh, 0.5)
		}
		got := tw.TraceRootLanes(f, sh, &bs, n)
		ws.TraceRootLanes(f, sh, &bs2, n)
		for k := 0; k < n; k++ {
			if ws.ln[k].closed && math.Float64bits(got[k]) != math.Float64bits(want[k]) {
				t.Fatalf("trial %d lane %d: TraceRootLanes %v, RootLanes %v", trial, k, got[k], want[k])
			}
			if !(math.Abs(got[k]-want[k]) <= 1e-12*want[k]) && !(math.IsNaN(got[k]) && math.IsNaN(want[k])) {
				t.Fatalf("trial %d lane %d (closed %v): TraceRootLanes %v, RootLanes %v", trial, k, ws.ln[k].closed, got[k], want[k])
			}
			after := make([]float64, d*d)
			ws.AddRootLane(k, after, 1)
			ws.AddInvMapLane(k, after, f, sh, 0.5)
			for q := range after {
				if math.Float64bits(after[q]) != math.Float64bits(before[k][q]) {
					t.Fatalf("trial %d lane %d: TraceRootLanes changed RootLanes' maps at %d", trial, k, q)
				}
			}
		}
	}
}

// TestClosed5ThenEigen checks that lanes the closed form took in one call
// take the eigensolver's maps after a later EigenLanes (the lane's state
// follows the last call).
func TestClosed5ThenEigen(t *testing.T) {
	const d = 5
	rng := rand.New(rand.NewPCG(5, 67))
	ws, ref := NewWorkspace(d), NewWorkspace(d)
	f, g := make([]float64, d*d), make([]float64, d*d)
	a := spd(rng, uniformLam(0.1, 2)(rng, d))
	sh := ws.Factor(a, f, g)
	var bs, bs2 [Lanes][]float64
	for k := range bs {
		bs[k] = spd(rng, uniformLam(0.1, 2)(rng, d))
		bs2[k] = spd(rng, uniformLam(0.1, 2)(rng, d))
	}
	ws.RootLanes(f, sh, &bs, Lanes)
	for k := 0; k < Lanes; k++ {
		if !ws.ln[k].closed {
			t.Fatalf("lane %d: a well-conditioned pair fell back", k)
		}
	}
	ws.EigenLanes(f, sh, &bs2, Lanes)
	for k := 0; k < Lanes; k++ {
		ref.Eigen(f, sh, bs2[k])
		s1, s2 := make([]float64, d*d), make([]float64, d*d)
		ws.AddRootLane(k, s1, 1)
		ref.AddRoot(s2, 1)
		ws.AddInvMapLane(k, s1, f, sh, 0.5)
		ref.AddInvMap(s2, f, sh, 0.5)
		var top, diff float64
		for q := range s2 {
			top = math.Max(top, math.Abs(s2[q]))
			diff = math.Max(diff, math.Abs(s1[q]-s2[q]))
		}
		if diff > 1e-12*top {
			t.Errorf("lane %d: maps after EigenLanes off by %g of %g", k, diff, top)
		}
	}
}
