package widget

import (
	"fmt"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/canvas"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"
)

// TTicks is the row of labels under the geodesic tool's t slider: the
// whole numbers from TMin to TMax, each centred under the slider
// position of its value; 0 and 1 (the ends of the geodesic) are bold in
// the foreground colour, the others in the placeholder colour.
type TTicks struct {
	widget.BaseWidget
	vals   []float64
	texts  []*canvas.Text
	marked []*canvas.Text // 0 and 1
	plain  []*canvas.Text
}

// NewTTicks returns the tick labels of the t slider.
func NewTTicks() *TTicks {
	s := &TTicks{}
	for v := TMin; v <= TMax; v++ {
		t := canvas.NewText(fmt.Sprintf("%g", v), theme.Color(theme.ColorNamePlaceHolder))
		t.TextSize = theme.CaptionTextSize()
		if v == 0 || v == 1 {
			t.TextStyle.Bold = true
			t.Color = theme.Color(theme.ColorNameForeground)
			s.marked = append(s.marked, t)
		} else {
			s.plain = append(s.plain, t)
		}
		s.vals = append(s.vals, v)
		s.texts = append(s.texts, t)
	}
	s.ExtendBaseWidget(s)
	return s
}

// CreateRenderer places the labels with tickLayout.
func (s *TTicks) CreateRenderer() fyne.WidgetRenderer {
	objs := make([]fyne.CanvasObject, len(s.texts))
	for i, t := range s.texts {
		objs[i] = t
	}
	return widget.NewSimpleRenderer(container.New(&tickLayout{vals: s.vals, lo: TMin, hi: TMax}, objs...))
}

// Refresh gives the labels the current theme's colours.
func (s *TTicks) Refresh() {
	recolourTexts(theme.ColorNameForeground, s.marked...)
	recolourTexts(theme.ColorNamePlaceHolder, s.plain...)
	s.BaseWidget.Refresh()
}

// sliderEndPad is the distance from a horizontal widget.Slider's edge to
// the ends of its track, where the thumb's centre sits at Min and Max
// (Fyne v2.7 slider.go: buttonDiameter/2 + inner padding - 1.5, with
// buttonDiameter = inline icon size - 4). TestTTicksUnderThumb checks it
// against the slider's drawn thumb.
func sliderEndPad() float32 {
	return (theme.Size(theme.SizeNameInlineIcon)-4)/2 + theme.Size(theme.SizeNameInnerPadding) - 1.5
}

// tickLayout centres object i horizontally at the slider position of
// vals[i] on [lo, hi] (objects and vals in the same order).
type tickLayout struct {
	vals   []float64
	lo, hi float64
}

// Layout places each object at its value's slider position.
func (l *tickLayout) Layout(objs []fyne.CanvasObject, size fyne.Size) {
	pad := sliderEndPad()
	track := size.Width - 2*pad
	for i, o := range objs {
		if i >= len(l.vals) {
			break
		}
		ms := o.MinSize()
		x := pad + float32((l.vals[i]-l.lo)/(l.hi-l.lo))*track
		o.Resize(ms)
		o.Move(fyne.NewPos(x-ms.Width/2, 0))
	}
}

// MinSize is one row of labels with room between them.
func (l *tickLayout) MinSize(objs []fyne.CanvasObject) fyne.Size {
	var w, h float32
	for _, o := range objs {
		ms := o.MinSize()
		w += ms.Width + theme.Padding()
		h = max(h, ms.Height)
	}
	return fyne.NewSize(w+2*sliderEndPad(), h)
}
