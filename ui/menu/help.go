package menu

import (
	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/dialog"
	"fyne.io/fyne/v2/widget"
)

// HelpTitle is the Help menu's guide to the picture.
const HelpTitle = "What am I looking at?"

// helpText explains the picture: what an ellipse is in each view and
// family, what stress-1 means, and the keys.
const helpText = `## Each item is an ellipse

Every item of the data is a probability distribution in the plane (or in
3D): a centre (its mean) and a shape (its covariance). Items are placed so
that the 2-Wasserstein distances between their distributions match the
distances in the data as well as possible.

- **Covariance view**: the ellipse is the spread of the item. Wide means
  the item is uncertain or far from everything in several directions.
- **Precision view**: the inverse ellipse; small where the covariance is
  large.
- **Family**: *uniform* draws the support of a uniform distribution on the
  ellipse (tau = 1/(d+2)); *gaussian* draws the 1-sigma ellipse (tau = 1);
  *custom* uses the tau you type. The Model tab shows the tau in use.

## Stress-1

How far the fitted distances are from the data's, as one number:
sqrt(sum (fitted - given)^2 / sum given^2). 0 is a perfect fit; below
about 0.05 is good. The curve under the canvas shows it per iteration,
with classical MDS (and, if on, point MDS) as reference lines.

## Running

Start runs the optimiser up to the Iterations budget (Model tab).
Continue goes on from where the run stopped; changing Iterations never
discards the fit; only Reset starts again from classical MDS.

## Keys

- **Space**: start, pause, continue
- **S**: take 10 steps
- **R**: reset
- **F**: fit the view
- **+ / -**: zoom
- **Ctrl+O** open, **Ctrl+E** export figure, **Ctrl+F** find
- Mouse: wheel zooms, drag pans (3D: rotates), click selects, hover shows
  an item.`

// ShowHelp shows the guide to the picture in a scrollable dialog.
func (m *Menus) ShowHelp() {
	text := widget.NewRichTextFromMarkdown(helpText)
	text.Wrapping = fyne.TextWrapWord
	scroll := container.NewVScroll(text)
	d := dialog.NewCustom(HelpTitle, "Close", scroll, m.win)
	d.Resize(fyne.NewSize(620, 560))
	d.Show()
}
