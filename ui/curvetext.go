package ui

import (
	"image/color"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/canvas"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/theme"
)

// legendChip is a legend entry of a curve widget: a colour swatch and its
// name in the caption size and the theme's foreground colour. The text is
// returned too, for recolourTexts when the theme changes.
func legendChip(col color.NRGBA, text string) (fyne.CanvasObject, *canvas.Text) {
	r := canvas.NewRectangle(col)
	r.SetMinSize(fyne.NewSize(14, 3))
	t := canvas.NewText(text, theme.Color(theme.ColorNameForeground))
	t.TextSize = theme.CaptionTextSize()
	return container.NewHBox(container.NewCenter(r), t), t
}

// recolourTexts gives texts the current theme's colour name and redraws
// them. A canvas.Text keeps the colour it was made with, so a widget
// holding texts in theme colours calls this from its Refresh (Fyne
// refreshes every widget when the theme or its light / dark variant
// changes); otherwise white text stays on a light background.
func recolourTexts(name fyne.ThemeColorName, texts ...*canvas.Text) {
	c := theme.Color(name)
	for _, t := range texts {
		if t == nil {
			continue
		}
		t.Color = c
		t.Refresh()
	}
}
