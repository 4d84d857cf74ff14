package geodesic

import (
	"fmt"
	"math"
	"strings"
	"sync"
	"testing"

	"burescope/engine/emds"
	_ "burescope/ui/internal/cleanlocale" // before Fyne: no locale error under LANG=C

	"fyne.io/fyne/v2/test"

	"burescope/engine"
	"burescope/render"
)

// fakeHost is the app as the Geodesic tab sees it: Go and Do run at
// once (the test is the UI goroutine), the badge is recorded.
type fakeHost struct {
	mu    sync.Mutex
	snap  *emds.Snapshot
	badge string
	warn  bool
}

func (h *fakeHost) Snapshot() *emds.Snapshot { return h.snap }
func (h *fakeHost) Wake()                    {}
func (h *fakeHost) SetBadge(text string, warn bool) {
	h.mu.Lock()
	defer h.mu.Unlock()
	h.badge, h.warn = text, warn
}
func (h *fakeHost) Go(f func()) { f() }
func (h *fakeHost) Do(f func()) { f() }

// TestGeodesicOverlay: with two items picked, the overlay appends the
// measure at time t of the engine's geodesic between them, labelled with
// t; the badge says t and turns to a warning outside [0, 1]; the plot gets
// its Samples; unticking "Draw on canvas" removes the overlay.
func TestGeodesicOverlay(t *testing.T) {
	test.NewTempApp(t)
	sc := &render.Scene{
		Dim:    2,
		Means:  []float64{0, 0, 3, 4, 1, 1},
		Scales: []float64{1, 0, 0, 4, 4, 0, 0, 1, 1, 0, 0, 1},
		Labels: []string{"a", "b", "c"},
	}
	h := &fakeHost{snap: &emds.Snapshot{N: 3, Dim: 2, Family: engine.Gaussian(), Means: sc.Means, Scales: sc.Scales}}
	g := New(h)
	w := test.NewWindow(g.Content())
	defer w.Close()
	g.SetItems(sc.Labels)
	if ov, _ := g.Overlay(sc); ov != nil {
		t.Fatal("overlay before a pair was picked")
	}
	g.SetPair(0, 1)
	if n := g.Plot().Samples(); n != Samples || g.Plot().PlaceholderShown() {
		t.Errorf("plot has %d samples (want %d), placeholder shown %v", n, Samples, g.Plot().PlaceholderShown())
	}
	for _, tc := range []struct {
		t    float64
		warn bool
	}{{0.25, false}, {1.5, true}} {
		g.SetT(tc.t)
		ov, _ := g.Overlay(sc)
		if ov == nil || ov.Len() != 4 {
			t.Fatalf("t = %v: overlay %v", tc.t, ov)
		}
		mean, scale, err := engine.Geodesic(sc.Means[0:2], sc.Scales[0:4], sc.Means[2:4], sc.Scales[4:8], 2, tc.t)
		if err != nil {
			t.Fatal(err)
		}
		for k := range mean {
			if !(math.Abs(ov.Means[6+k]-mean[k]) <= 1e-12) {
				t.Errorf("t = %v: mean %v, engine %v", tc.t, ov.Means[6:8], mean)
			}
		}
		for k := range scale {
			if !(math.Abs(ov.Scales[12+k]-scale[k]) <= 1e-12) {
				t.Errorf("t = %v: scale %v, engine %v", tc.t, ov.Scales[12:16], scale)
			}
		}
		h.mu.Lock()
		badge, warn := h.badge, h.warn
		h.mu.Unlock()
		if warn != tc.warn || !strings.Contains(badge, fmt.Sprintf("t = %.2f", tc.t)) {
			t.Errorf("t = %v: badge %q warn %v", tc.t, badge, warn)
		}
		if got := ov.Labels[3]; !strings.HasPrefix(got, "t = ") || strings.Contains(got, "extrapolated") != tc.warn {
			t.Errorf("t = %v: label %q", tc.t, got)
		}
	}
	g.SetShown(false)
	if ov, _ := g.Overlay(sc); ov != nil {
		t.Error("overlay drawn with Draw on canvas off")
	}
}

// TestGeodesicModeStaysSelected: the mode group (two items or two saved
// states) is a required one, so a click or Space on the selected mode
// keeps that mode.
func TestGeodesicModeStaysSelected(t *testing.T) {
	test.NewTempApp(t)
	h := &fakeHost{snap: &emds.Snapshot{N: 2, Dim: 2, Family: engine.Gaussian(), Means: []float64{0, 0, 1, 1}, Scales: []float64{1, 0, 0, 1, 1, 0, 0, 1}}}
	g := New(h)
	w := test.NewWindow(g.Content())
	defer w.Close()
	for _, states := range []bool{false, true} {
		g.SetStatesMode(states)
		if !g.mode.Required || g.mode.Selected == "" {
			t.Errorf("radio group %v: Required %v, selected %q: a click or Space on the selected option could empty it", g.mode.Options, g.mode.Required, g.mode.Selected)
		}
		if g.whole != states {
			t.Errorf("states mode %v became %v", states, g.whole)
		}
	}
}
