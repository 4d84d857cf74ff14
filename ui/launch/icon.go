package launch

import (
	"bytes"
	"image/png"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/theme"

	"burescope/ui/internal/icongen"
)

// Icon is the window icon, drawn by the same generator as
// assets/icon.png (0.1 CPU-s: Run draws it after the first frame).
func Icon() fyne.Resource {
	var buf bytes.Buffer
	if err := png.Encode(&buf, icongen.Draw(256)); err != nil {
		return theme.FyneLogo() // encoding an in-memory image does not fail
	}
	return fyne.NewStaticResource("burescope.png", buf.Bytes())
}
