package model

import (
	"burescope/engine/emds"
	_ "burescope/ui/internal/cleanlocale" // before Fyne: no locale error under LANG=C
	"fmt"
	"math"
	"strconv"
	"strings"
	"testing"

	"fyne.io/fyne/v2/test"
	"fyne.io/fyne/v2/widget"

	"burescope/ui/fit"
)

// fakeHost is the app as the Model tab sees it.
type fakeHost struct {
	set     fit.Settings
	applied []fit.Settings
	errs    []string
}

func (h *fakeHost) Settings() fit.Settings     { return h.set }
func (h *fakeHost) ApplyModel(st fit.Settings) { h.applied = append(h.applied, st); h.set = st }
func (h *fakeHost) BackendDesc() string        { return "cpu (2 threads)" }
func (h *fakeHost) ShowError(title string, err error) {
	h.errs = append(h.errs, title+": "+err.Error())
}

// TestModelTab: a change reaches the host as new settings (one per
// change, none while syncing), tau is editable for the custom family
// only, a bad number gives an error and the field shows the setting again,
// and every backend choice is offered, gl64 included.
func TestModelTab(t *testing.T) {
	test.NewTempApp(t)
	h := &fakeHost{set: fit.DefaultSettings()}
	p := New(h)
	w := test.NewWindow(p.Content())
	defer w.Close()
	if len(h.applied) != 0 {
		t.Fatalf("building the tab applied %d settings", len(h.applied))
	}
	if !p.tau.Disabled() {
		t.Error("tau editable for the uniform family")
	}
	p.family.SetSelected("custom")
	if len(h.applied) != 1 || h.applied[0].Family != "custom" || p.tau.Disabled() {
		t.Fatalf("custom family: applied %+v, tau disabled %v", h.applied, p.tau.Disabled())
	}
	test.Type(p.tau, "x")
	p.tau.OnSubmitted(p.tau.Text)
	if len(h.errs) != 1 || p.tau.Text != "1" || len(h.applied) != 1 {
		t.Errorf("bad tau: errors %q, field %q, %d settings applied", h.errs, p.tau.Text, len(h.applied))
	}
	p.iters.SetText("250")
	p.iters.OnSubmitted(p.iters.Text)
	if n := len(h.applied); n != 2 || h.applied[1].Iterations != 250 {
		t.Errorf("iterations: applied %+v", h.applied)
	}
	p.SetDim(3)
	if n := len(h.applied); n != 3 || h.applied[2].Dim != 3 {
		t.Errorf("dimension: applied %+v", h.applied)
	}
	if got := p.backend.Options; len(got) != len(fit.BackendChoices) || got[len(got)-1] != "gl64" {
		t.Errorf("backends offered %v", got)
	}
	p.Sync(fit.DefaultSettings())
	if len(h.applied) != 3 {
		t.Errorf("Sync applied settings: %d", len(h.applied))
	}
}

// TestModelTabStructure: the covariance structure, the scale budget and
// the pairs choice reach the host as settings, and the options the
// session builds from them (fit.EngineOptions) carry them to the engine.
func TestModelTabStructure(t *testing.T) {
	test.NewTempApp(t)
	h := &fakeHost{set: fit.DefaultSettings()}
	p := New(h)
	w := test.NewWindow(p.Content())
	defer w.Close()
	if p.structure.Selected != emds.StructureFull || p.budget.Text != "0" || p.pairs.Selected != "auto" {
		t.Fatalf("defaults shown: structure %q budget %q pairs %q", p.structure.Selected, p.budget.Text, p.pairs.Selected)
	}
	p.structure.SetSelected(emds.StructureDiagonal)
	p.budget.SetText("0.03")
	p.budget.OnSubmitted(p.budget.Text)
	p.pairs.SetSelected("exact")
	if len(h.applied) != 3 {
		t.Fatalf("applied %d settings, want 3", len(h.applied))
	}
	st := h.applied[2]
	opt, err := fit.EngineOptions(st)
	if err != nil {
		t.Fatal(err)
	}
	if opt.Structure != emds.StructureDiagonal || opt.ScaleBudget != 0.03 || opt.Points || st.Pairs != "exact" {
		t.Errorf("engine options: structure %q budget %v points %v; pairs %q", opt.Structure, opt.ScaleBudget, opt.Points, st.Pairs)
	}
	p.structure.SetSelected(emds.StructurePoints)
	if opt, _ := fit.EngineOptions(h.set); !opt.Points {
		t.Error("points structure does not fit points")
	}
	p.budget.SetText("-1")
	p.budget.OnSubmitted(p.budget.Text)
	if err := h.set.Validate(); err == nil {
		t.Error("a negative scale budget validates")
	}
}

// TestModelTabShowsTheFamilysTau: for the uniform and gaussian families
// the tau field shows the constant the fit uses (the paper's 1/(d+2) for
// the uniform family, 1 for the gaussian), not the custom family's.
func TestModelTabShowsTheFamilysTau(t *testing.T) {
	test.NewTempApp(t)
	tests := []struct {
		family string
		dim    int
		want   float64
	}{
		{"uniform", 2, 1.0 / 4},
		{"uniform", 3, 1.0 / 5},
		{"gaussian", 2, 1},
		{"custom", 2, 0.7},
	}
	for _, tc := range tests {
		t.Run(fmt.Sprintf("%s-d%d", tc.family, tc.dim), func(t *testing.T) {
			st := fit.DefaultSettings()
			st.Family, st.Dim, st.Tau = tc.family, tc.dim, 0.7
			h := &fakeHost{set: st}
			p := New(h)
			p.Sync(st)
			got, err := strconv.ParseFloat(p.tau.Text, 64)
			if err != nil || !(math.Abs(got-tc.want) <= 1e-12) {
				t.Errorf("tau field %q, want %g", p.tau.Text, tc.want)
			}
		})
	}
}

// TestEpsExplained: the eps field carries a short explanation below it
// that names what eps does (regularisation of the covariances).
func TestEpsExplained(t *testing.T) {
	test.NewTempApp(t)
	p := New(&fakeHost{set: fit.DefaultSettings()})
	w := test.NewWindow(p.Content())
	defer w.Close()
	var hint string
	found := false
	for _, o := range test.LaidOutObjects(p.Content()) {
		if f, ok := o.(*widget.Form); ok {
			for _, it := range f.Items {
				if it.Text == "eps" {
					hint, found = it.HintText, true
				}
			}
		}
	}
	if !found {
		t.Fatal("no eps field in the Model tab")
	}
	if !strings.Contains(hint, "covariance") || !strings.Contains(strings.ToLower(hint), "regularis") {
		t.Errorf("eps hint %q does not explain the regularisation", hint)
	}
}

// TestModelTabNarrow: the tab's help texts do not widen the side panel
// (a long one-line hint once forced the whole window to 1449 px).
func TestModelTabNarrow(t *testing.T) {
	test.NewTempApp(t)
	p := New(&fakeHost{set: fit.DefaultSettings()})
	w := test.NewWindow(p.Content())
	defer w.Close()
	if wd := p.Content().MinSize().Width; !(wd <= 400) {
		t.Errorf("Model tab needs %v px of width, want at most 400", wd)
	}
}

// TestModelDimensionStaysSelected: the dimension group is a required one
// (Fyne then keeps its selection when the selected dimension is clicked
// or given a Space), so it stays selected and applies nothing (it used to
// empty the group and report "dimension: 0").
func TestModelDimensionStaysSelected(t *testing.T) {
	test.NewTempApp(t)
	h := &fakeHost{set: fit.DefaultSettings()}
	p := New(h)
	w := test.NewWindow(p.Content())
	defer w.Close()
	for _, d := range []int{2, 3} {
		p.SetDim(d)
		n := len(h.applied)
		if !p.dim.Required || p.dim.Selected == "" {
			t.Errorf("radio group %v: Required %v, selected %q: a click or Space on the selected option could empty it", p.dim.Options, p.dim.Required, p.dim.Selected)
		}
		if len(h.applied) != n || h.set.Dim != d || len(h.errs) != 0 {
			t.Errorf("dimension %d: %d more settings applied, dim %d, errors %q", d, len(h.applied)-n, h.set.Dim, h.errs)
		}
	}
}
