package data

import (
	_ "burescope/ui/internal/cleanlocale" // before Fyne: no locale error under LANG=C
	"strings"
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/test"
	"fyne.io/fyne/v2/theme"

	"burescope/datasets"
	"burescope/ui/fit"
)

// TestDataCardAboveInputHeading checks the Data tab's layout as Fyne's
// test driver renders it: the dataset card (a word-wrapped label whose
// height depends on its width) must end above the "Input" heading and
// be tall enough for all of its wrapped text, for a short, a long
// (attribution over three lines) and a relations card, and again after
// the window narrows (more wrapped lines: the test driver, unlike the
// GL one, never re-lays a parent out when a child's MinSize changes).
// fakeHost is the app as the Data tab sees it; functions posted with Do
// run at the next flush (the UI goroutine's later turn).
type fakeHost struct {
	set     fit.Settings
	pending []func()
}

func (h *fakeHost) Settings() fit.Settings    { return h.set }
func (h *fakeHost) Load(string, fit.Settings) {}
func (h *fakeHost) OpenDialog()               {}
func (h *fakeHost) ApplyData(st fit.Settings) { h.set = st }
func (h *fakeHost) Do(f func())               { h.pending = append(h.pending, f) }
func (h *fakeHost) flush() {
	for len(h.pending) > 0 {
		f := h.pending[0]
		h.pending = h.pending[1:]
		f()
	}
}

// testTab shows a Data tab describing dataset in a test window.
func testTab(t *testing.T, dataset string) (*Tab, *fakeHost, fyne.Window) {
	t.Helper()
	test.NewTempApp(t)
	ds, err := datasets.Load(dataset, datasets.Options{})
	if err != nil {
		t.Fatal(err)
	}
	h := &fakeHost{set: fit.DefaultSettings()}
	h.set.Dataset = dataset
	p := New(h, nil)
	w := test.NewWindow(p.Content())
	t.Cleanup(w.Close)
	w.Resize(fyne.NewSize(300, 700))
	p.ShowDataset(ds)
	h.flush()
	return p, h, w
}

func TestDataCardAboveInputHeading(t *testing.T) {
	for _, test := range []struct {
		dataset string
		lines   int // lines of text before wrapping: name, counts, [classes], source
	}{
		{dataset: "builtin:pisa2015", lines: 3},
		{dataset: "builtin:iris", lines: 4},
		{dataset: "builtin:mammals", lines: 3},
	} {
		t.Run(test.dataset, func(t *testing.T) {
			p, h, w := testTab(t, test.dataset)
			for _, width := range []float32{300, 228} {
				var cardTop, cardBottom, headTop, textMin, cardHeight, labelHeight float32
				var text string
				w.Resize(fyne.NewSize(width, 700))
				h.flush() // the reflow the resize asked for
				{
					d := fyne.CurrentApp().Driver()
					cardTop = d.AbsolutePositionForObject(p.infoCard).Y
					cardHeight = p.infoCard.Size().Height
					cardBottom = cardTop + cardHeight
					headTop = d.AbsolutePositionForObject(p.inputHead).Y
					textMin = p.info.MinSize().Height
					labelHeight = p.info.Size().Height
					text = p.info.Text
				}
				if got := strings.Count(text, "\n") + 1; got != test.lines {
					t.Errorf("width %v: card has %d lines, want %d:\n%s", width, got, test.lines, text)
				}
				if strings.Count(text, "features") > 1 {
					t.Errorf("width %v: card repeats \"features\": %q", width, text)
				}
				if cardBottom > headTop {
					t.Errorf("width %v: card bottom %.1f below the Input heading's top %.1f", width, cardBottom, headTop)
				}
				// The label's wrapped text (its MinSize at its width) fits the
				// label, and the label fits the card.
				if labelHeight < textMin {
					t.Errorf("width %v: card label %.1f high, its wrapped text needs %.1f", width, labelHeight, textMin)
				}
				if cardHeight < labelHeight {
					t.Errorf("width %v: card %.1f high, its label %.1f", width, cardHeight, labelHeight)
				}
				// One text line is ~19 units in the default theme: the card is
				// at least as tall as its unwrapped lines.
				if minText := float32(test.lines) * 17; textMin < minText {
					t.Errorf("width %v: card text needs %.1f, fewer than %d lines (%.1f)", width, textMin, test.lines, minText)
				}
			}
		})
	}
}

// TestDataCardShrinks shows a long card (iris: classes and a three-line
// attribution) and then a short one (mammals) in the same panel: the
// "Input" heading must follow the card up, within the column's spacing
// (theme.Padding) of its bottom edge, not stay below a stale tall card.
func TestDataCardShrinks(t *testing.T) {
	p, h, _ := testTab(t, "builtin:iris")
	short, err := datasets.Load("builtin:mammals", datasets.Options{})
	if err != nil {
		t.Fatal(err)
	}
	var before, after, gap float32
	before = p.infoCard.Size().Height
	p.ShowDataset(short)
	h.flush()
	{
		d := fyne.CurrentApp().Driver()
		after = p.infoCard.Size().Height
		gap = d.AbsolutePositionForObject(p.inputHead).Y - (d.AbsolutePositionForObject(p.infoCard).Y + after)
	}
	if after >= before {
		t.Errorf("card height %.1f after a shorter text, was %.1f", after, before)
	}
	if pad := theme.Padding(); gap < 0 || gap > 2*pad {
		t.Errorf("gap between the card and the Input heading %.1f, want 0 to %.1f", gap, 2*pad)
	}
}

// TestSyncNamesTheLoadedFile: after a file is opened the recent-files
// picker shows it (and the built-in picker nothing); after a built-in,
// the built-in picker shows it and the recent-files picker nothing.
func TestSyncNamesTheLoadedFile(t *testing.T) {
	test.NewTempApp(t)
	h := &fakeHost{set: fit.DefaultSettings()}
	p := New(h, []string{"/data/a.csv", "/data/b.csv"})
	st := fit.DefaultSettings()
	st.Dataset = "/data/b.csv"
	p.Sync(st)
	if p.recent.Selected != "/data/b.csv" || p.builtin.Selected != "" {
		t.Errorf("file: recent %q, built-in %q; want /data/b.csv and none", p.recent.Selected, p.builtin.Selected)
	}
	st.Dataset = datasets.BuiltinPrefix + "iris"
	p.Sync(st)
	if p.recent.Selected != "" || p.builtin.Selected != "iris" {
		t.Errorf("built-in: recent %q, built-in %q; want none and iris", p.recent.Selected, p.builtin.Selected)
	}
}
