package view

import (
	"fmt"

	"burescope/engine"
)

// OrientNamed is OrientLeftRight for the items labelled left, right and
// up ("": none) of the 2-D picture in f (labels: the item labels of what
// it shows), on the means drawn now: the orientation to set on the Loop.
func OrientNamed(f *Frame, labels []string, left, right, up string) ([]float64, error) {
	if f.Scene.Dim != 2 {
		return nil, fmt.Errorf("orientation is for 2-D pictures (this one is %d-D: drag to rotate it)", f.Scene.Dim)
	}
	find := func(name string) (int, error) {
		for i, l := range labels {
			if l == name {
				return i, nil
			}
		}
		return -1, fmt.Errorf("no item labelled %q", name)
	}
	il, err := find(left)
	if err != nil {
		return nil, err
	}
	ir, err := find(right)
	if err != nil {
		return nil, err
	}
	iu := -1
	if up != "" {
		if iu, err = find(up); err != nil {
			return nil, err
		}
	}
	return OrientLeftRight(f.Scene.Means, il, ir, iu)
}

// Picture is a remembered picture: each item's drawn position by label,
// the reference that AlignTo turns a later fit onto.
type Picture map[string][2]float64

// RememberPicture returns the drawn positions of the items of the 2-D
// picture in f (through the orientation in use).
func RememberPicture(f *Frame, labels []string) (Picture, error) {
	if f.Scene.Dim != 2 {
		return nil, fmt.Errorf("aligning is for 2-D pictures (this one is %d-D)", f.Scene.Dim)
	}
	ref := make(Picture, len(labels))
	for i, l := range labels {
		if i < f.Scene.Len() {
			x, y := ProjectMean(f.Scene, f.Style, i)
			ref[l] = [2]float64{x, y}
		}
	}
	return ref, nil
}

// AlignTo returns the orientation that turns (or mirrors) the 2-D
// picture in f onto p: engine.Procrustes of the items' means onto their
// remembered positions, matched by label.
func (p Picture) AlignTo(f *Frame, labels []string) ([]float64, error) {
	if f.Scene.Dim != 2 {
		return nil, fmt.Errorf("aligning is for 2-D pictures (this one is %d-D)", f.Scene.Dim)
	}
	var x, y []float64
	for i, l := range labels {
		if q, ok := p[l]; ok && i < f.Scene.Len() {
			x = append(x, f.Scene.Means[2*i], f.Scene.Means[2*i+1])
			y = append(y, q[0], q[1])
		}
	}
	if len(x) < 4 {
		return nil, fmt.Errorf("fewer than two items in common with the remembered picture")
	}
	r, _, err := engine.Procrustes(len(x)/2, 2, x, y)
	if err != nil {
		return nil, err
	}
	// Procrustes maps rows (x R); the loop maps columns (o m): o = R^T.
	return []float64{r[0], r[2], r[1], r[3]}, nil
}
