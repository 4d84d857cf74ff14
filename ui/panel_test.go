package ui

import (
	"strings"
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/theme"

	"burescope/datasets"
)

// TestDataCardAboveInputHeading checks the Data tab's layout as Fyne's
// test driver renders it: the dataset card (a word-wrapped label whose
// height depends on its width) must end above the "Input" heading and
// be tall enough for all of its wrapped text, for a short, a long
// (attribution over three lines) and a relations card, and again after
// the window narrows (more wrapped lines: the test driver, unlike the
// GL one, never re-lays a parent out when a child's MinSize changes).
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
			a := newTestApp(t, test.dataset)
			for _, width := range []float32{1000, 760} {
				var cardTop, cardBottom, headTop, textMin, cardHeight, labelHeight float32
				var text string
				a.on(func() {
					a.win.Resize(fyne.NewSize(width, 700))
				})
				a.on(func() { // after the reflow the resize asked for
					p := a.panel
					d := fyne.CurrentApp().Driver()
					cardTop = d.AbsolutePositionForObject(p.infoCard).Y
					cardHeight = p.infoCard.Size().Height
					cardBottom = cardTop + cardHeight
					headTop = d.AbsolutePositionForObject(p.inputHead).Y
					textMin = p.info.MinSize().Height
					labelHeight = p.info.Size().Height
					text = p.info.Text
				})
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
	a := newTestApp(t, "builtin:iris")
	short, err := datasets.Load("builtin:mammals", datasets.Options{})
	if err != nil {
		t.Fatal(err)
	}
	var before, after, gap float32
	a.on(func() { before = a.panel.infoCard.Size().Height })
	a.on(func() { a.panel.showDataset(short) })
	a.on(func() {
		p := a.panel
		d := fyne.CurrentApp().Driver()
		after = p.infoCard.Size().Height
		gap = d.AbsolutePositionForObject(p.inputHead).Y - (d.AbsolutePositionForObject(p.infoCard).Y + after)
	})
	if after >= before {
		t.Errorf("card height %.1f after a shorter text, was %.1f", after, before)
	}
	if pad := theme.Padding(); gap < 0 || gap > 2*pad {
		t.Errorf("gap between the card and the Input heading %.1f, want 0 to %.1f", gap, 2*pad)
	}
}
