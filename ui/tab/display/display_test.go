package display

import (
	"testing"

	_ "burescope/ui/internal/cleanlocale" // before Fyne: no locale error under LANG=C

	"fyne.io/fyne/v2/test"

	"burescope/ui/fit"
)

// fakeHost is the app as the View tab sees it.
type fakeHost struct {
	set     fit.Settings
	applied []fit.Settings
	fits    int
}

func (h *fakeHost) Settings() fit.Settings    { return h.set }
func (h *fakeHost) ApplyView(st fit.Settings) { h.applied = append(h.applied, st); h.set = st }
func (h *fakeHost) FitView()                  { h.fits++ }

// TestDisplayTab: each view change reaches the host as settings that
// differ from the old ones only in that option; Sync shows settings
// without applying them.
func TestDisplayTab(t *testing.T) {
	test.NewTempApp(t)
	h := &fakeHost{set: fit.DefaultSettings()}
	p := New(h)
	w := test.NewWindow(p.Content())
	defer w.Close()
	if len(h.applied) != 0 {
		t.Fatalf("building the tab applied %d settings", len(h.applied))
	}
	for _, tc := range []struct {
		name  string
		do    func()
		check func(fit.Settings) bool
	}{
		{"precision", func() { p.SetEllipses("precision") }, func(s fit.Settings) bool { return s.View == "precision" }},
		{"colour by stress", func() { p.colorBy.SetSelected("stress") }, func(s fit.Settings) bool { return s.ColorBy == "stress" }},
		{"no labels", func() { p.labels.SetChecked(false) }, func(s fit.Settings) bool { return !s.Labels }},
		{"level 2", func() { p.level.SetValue(2) }, func(s fit.Settings) bool { return s.Level == 2 }},
	} {
		t.Run(tc.name, func(t *testing.T) {
			before := h.set
			n := len(h.applied)
			tc.do()
			if len(h.applied) != n+1 {
				t.Fatalf("%d settings applied, want 1", len(h.applied)-n)
			}
			got := h.applied[n]
			if !tc.check(got) || got.ModelChanged(before) {
				t.Errorf("applied %+v (from %+v)", got, before)
			}
		})
	}
	n := len(h.applied)
	p.Sync(fit.DefaultSettings())
	if len(h.applied) != n || p.Ellipses() != fit.DefaultSettings().View {
		t.Errorf("Sync applied %d settings, shows %q", len(h.applied)-n, p.Ellipses())
	}
}
