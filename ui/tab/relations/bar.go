package relations

import (
	"image/color"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/theme"
)

// barTheme is the progress bar's theme: the app's own while training
// runs; while idle or finished the bar is drawn in the disabled greys,
// so it does not look active beside a disabled form.
type barTheme struct{ idle bool }

// Color is the app theme's colour, with the bar's primary colours
// greyed out while idle.
func (b *barTheme) Color(n fyne.ThemeColorName, v fyne.ThemeVariant) color.Color {
	if b.idle {
		switch n {
		case theme.ColorNamePrimary:
			n = theme.ColorNameDisabledButton
		case theme.ColorNameForegroundOnPrimary:
			n = theme.ColorNameDisabled
		}
	}
	return appTheme().Color(n, v)
}

// Font is the app theme's.
func (b *barTheme) Font(s fyne.TextStyle) fyne.Resource { return appTheme().Font(s) }

// Icon is the app theme's.
func (b *barTheme) Icon(n fyne.ThemeIconName) fyne.Resource { return appTheme().Icon(n) }

// Size is the app theme's.
func (b *barTheme) Size(n fyne.ThemeSizeName) float32 { return appTheme().Size(n) }

// appTheme is the application's theme (theme.Current would return the
// theme being rendered with, this one, while the bar draws).
func appTheme() fyne.Theme {
	if a := fyne.CurrentApp(); a != nil && a.Settings().Theme() != nil {
		return a.Settings().Theme()
	}
	return theme.DefaultTheme()
}
