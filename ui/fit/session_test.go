package fit

import (
	"math"
	"testing"

	"burescope/datasets"
	"burescope/engine"
	"burescope/engine/emds"
)

// gridDataset returns n items with distances in [1, 1.5] (a metric that
// no plane holds exactly, so the fit never converges at once).
func gridDataset(n int) *datasets.Dataset {
	ds := &datasets.Dataset{Name: "grid", Kind: datasets.KindDistances}
	for i := 0; i < n; i++ {
		ds.Labels = append(ds.Labels, string(rune('a'+i)))
	}
	ds.Dist = make([]float64, n*(n-1)/2)
	for i := 0; i < n; i++ {
		for j := i + 1; j < n; j++ {
			ds.Dist[engine.PairIndex(n, i, j)] = 1 + 0.5*math.Mod(float64(7*i+3*j), 5)/4
		}
	}
	return ds
}

func testSettings() Settings {
	st := DefaultSettings()
	st.Iterations = 1_000_000
	st.Tol = 0 // never converge between two assertions
	return st
}

// TestSessionReplaceWhileRunning: a worker that finishes after Open has
// installed a new optimiser must not publish its stale snapshot.
func TestSessionReplaceWhileRunning(t *testing.T) {
	s := NewSession()
	defer s.Close()
	if err := openIn(s, gridDataset(5), testSettings(), emds.NewCPUBackend(1), "cpu"); err != nil {
		t.Fatal(err)
	}
	s.Start()
	eventually(t, "iterations", func() bool { return s.Snapshot().Iter > 3 })
	if err := openIn(s, gridDataset(7), testSettings(), emds.NewCPUBackend(1), "cpu"); err != nil {
		t.Fatal(err)
	}
	s.Wait()
	if got := s.Snapshot(); got.N != 7 || got.Iter != 0 {
		t.Errorf("after replacing: snapshot n=%d iter=%d, want n=7 iter=0", got.N, got.Iter)
	}
	if s.State() != StatePaused {
		t.Errorf("state %v after Open, want paused", s.State())
	}
}

func TestSessionRunControl(t *testing.T) {
	s := NewSession()
	defer s.Close()
	if s.Start() || s.Step(1) {
		t.Fatal("an empty session started")
	}
	if err := openIn(s, gridDataset(6), testSettings(), emds.NewCPUBackend(1), "cpu"); err != nil {
		t.Fatal(err)
	}
	if !s.Step(7) {
		t.Fatal("step refused")
	}
	s.Wait()
	it := s.Snapshot().Iter
	if it != 7 {
		t.Fatalf("iterations after Step(7): %d", it)
	}
	if !s.Start() {
		t.Fatal("start refused")
	}
	if s.Start() {
		t.Error("second start accepted while running")
	}
	if !s.Pause() && s.State() != StateDone {
		t.Fatalf("pause refused in state %v", s.State())
	}
	s.Wait()
	it = s.Snapshot().Iter
	for k := 0; k < 3; k++ {
		if got := s.Snapshot().Iter; got != it {
			t.Fatalf("paused session moved %d -> %d", it, got)
		}
	}
	s.Jitter(0.1)
	s.Wait()
	if got := s.Snapshot().Iter; got != it {
		t.Errorf("jitter changed the iteration count %d -> %d", it, got)
	}
	s.Reset(2)
	s.Wait()
	if got := s.Snapshot(); got.Iter != 0 || len(got.History) != 1 {
		t.Errorf("after reset: iter %d, history %d", got.Iter, len(got.History))
	}
}

func TestSessionOpenRejectsEmbedding(t *testing.T) {
	s := NewSession()
	ds := &datasets.Dataset{Name: "e.json", Kind: datasets.KindEmbedding, Labels: []string{"a", "b"}}
	err := openIn(s, ds, testSettings(), emds.NewCPUBackend(1), "cpu")
	if err == nil || s.Dataset() != nil {
		t.Fatalf("an embedding without distances was opened: %v", err)
	}
}

// TestSessionClosed: after Close nothing starts (a late UI callback must
// not run a released optimiser).
func TestSessionClosed(t *testing.T) {
	s := NewSession()
	if err := openIn(s, gridDataset(5), testSettings(), emds.NewCPUBackend(1), "cpu"); err != nil {
		t.Fatal(err)
	}
	s.Close()
	if s.Start() || s.Step(1) || s.Reset(1) || s.Jitter(0.1) {
		t.Error("a closed session accepted work")
	}
	s.Toggle()
	s.Wait()
	if s.State() != StateEmpty {
		t.Errorf("closed session in state %v", s.State())
	}
}

// RunSpeed counts the iterations of the run that ended (its budget), not
// those before it, and a positive duration; Open installs a fit opened
// elsewhere (OpenFit), whose first snapshot the session shows.
func TestSessionRunSpeedAndOpen(t *testing.T) {
	s := NewSession()
	defer s.Close()
	st := testSettings()
	st.Iterations = 25
	ds := gridDataset(9)
	o, err := OpenFit(ds, st, OpenHow{Given: emds.NewCPUBackend(1), GivenDesc: "cpu"})
	if err != nil {
		t.Fatal(err)
	}
	opt := o.Optimizer
	s.Open(o)
	if got := s.Snapshot(); got != opt.Latest() || s.Dataset() != ds || s.State() != StatePaused {
		t.Fatalf("after Open: snapshot %p (optimiser's %p), state %v", got, opt.Latest(), s.State())
	}
	if k, sec := s.RunSpeed(); k != 0 || sec != 0 {
		t.Errorf("before any run: %d iterations in %v s", k, sec)
	}
	s.Step(5)
	s.Wait()
	s.Start()
	s.Wait()
	if k, sec := s.RunSpeed(); k != 20 || !(sec > 0) {
		t.Errorf("run from iteration 5 to the budget 25: RunSpeed %d iterations in %v s, want 20 in > 0 s", k, sec)
	}
}
