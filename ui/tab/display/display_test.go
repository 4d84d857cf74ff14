package display

import (
	_ "burescope/ui/internal/cleanlocale" // before Fyne: no locale error under LANG=C
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/test"
	"fyne.io/fyne/v2/widget"

	"burescope/render"
	"burescope/ui/fit"
)

// fakeHost is the app as the View tab sees it.
type fakeHost struct {
	set          fit.Settings
	applied      []fit.Settings
	fits         int
	bary, clears int
	orient       []string
}

func (h *fakeHost) Settings() fit.Settings    { return h.set }
func (h *fakeHost) ApplyView(st fit.Settings) { h.applied = append(h.applied, st); h.set = st }
func (h *fakeHost) FitView()                  { h.fits++ }
func (h *fakeHost) SelectionBarycenter()      { h.bary++ }
func (h *fakeHost) ClearBarycenter()          { h.clears++ }
func (h *fakeHost) Orient(l, r, u string) error {
	h.orient = []string{l, r, u}
	return nil
}
func (h *fakeHost) ResetOrientation()       { h.orient = nil }
func (h *fakeHost) ShowError(string, error) {}
func (h *fakeHost) RememberPicture() error  { return nil }
func (h *fakeHost) AlignToPicture() error   { return nil }
func (h *fakeHost) SetLabelColumn(string)   {}

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

// TestViewTabReadability: glyph mode and factor, draw order, outline
// only, legend and class barycenters reach the host, and fit.Style maps
// them to the render style the canvas and exports draw with; a factor
// outside [0, 1] is refused and the field shows the setting again.
func TestViewTabReadability(t *testing.T) {
	test.NewTempApp(t)
	h := &fakeHost{set: fit.DefaultSettings()}
	p := New(h)
	w := test.NewWindow(p.Content())
	defer w.Close()
	if def := fit.Style(h.set, false); def.Glyph != render.GlyphAuto || !def.Legend || def.NoFill || def.Order != render.OrderAuto {
		t.Errorf("default style %+v", def)
	}
	p.glyph.SetSelected("on")
	p.glyphFactor.SetText("0.25")
	p.glyphFactor.OnSubmitted(p.glyphFactor.Text)
	p.order.SetSelected("interleaved")
	p.outline.SetChecked(true)
	p.legend.SetChecked(false)
	p.classBary.SetChecked(true)
	if len(h.applied) != 6 {
		t.Fatalf("%d view changes applied, want 6", len(h.applied))
	}
	rs := fit.Style(h.set, false)
	if rs.Glyph != render.GlyphOn || rs.GlyphFactor != 0.25 || rs.Order != render.OrderInterleaved || !rs.NoFill || rs.Legend || !h.set.ClassBarycenters {
		t.Errorf("style %+v, class barycenters %v", rs, h.set.ClassBarycenters)
	}
	p.glyphFactor.SetText("2")
	p.glyphFactor.OnSubmitted(p.glyphFactor.Text)
	if len(h.applied) != 6 || p.glyphFactor.Text != "0.25" {
		t.Errorf("factor 2: %d applied, field %q", len(h.applied), p.glyphFactor.Text)
	}
	test.Tap(findButton(t, p, "Barycenter of selection"))
	test.Tap(findButton(t, p, "Clear"))
	if h.bary != 1 || h.clears != 1 {
		t.Errorf("barycenter commands: %d, clears %d", h.bary, h.clears)
	}
}

// findButton finds the button labelled text in the tab.
func findButton(t *testing.T, p *Tab, text string) *widget.Button {
	t.Helper()
	var found *widget.Button
	var walk func(o fyne.CanvasObject)
	walk = func(o fyne.CanvasObject) {
		switch v := o.(type) {
		case *widget.Button:
			if v.Text == text {
				found = v
			}
		case *fyne.Container:
			for _, c := range v.Objects {
				walk(c)
			}
		case *container.Scroll:
			walk(v.Content)
		}
	}
	walk(p.Content())
	if found == nil {
		t.Fatalf("no button %q", text)
	}
	return found
}

// TestDisplayEllipsesStaySelected: the Ellipses group (covariance or
// precision) is a required one, so a click or Space on the selected
// option keeps it and
// applies nothing.
func TestDisplayEllipsesStaySelected(t *testing.T) {
	test.NewTempApp(t)
	h := &fakeHost{set: fit.DefaultSettings()}
	p := New(h)
	w := test.NewWindow(p.Content())
	defer w.Close()
	for _, v := range fit.ViewChoices {
		p.SetEllipses(v)
		n := len(h.applied)
		if !p.view.Required || p.view.Selected == "" {
			t.Errorf("radio group %v: Required %v, selected %q: a click or Space on the selected option could empty it", p.view.Options, p.view.Required, p.view.Selected)
		}
		if len(h.applied) != n || h.set.View != v {
			t.Errorf("%s: %d more settings applied, view %q", v, len(h.applied)-n, h.set.View)
		}
	}
}
