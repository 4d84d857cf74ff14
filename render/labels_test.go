package render

import (
	"math/rand/v2"
	"testing"
)

// TestPlaceLabels checks the placement contract on a crowded random
// layout: placed labels lie in bounds, overlap neither each other nor the
// obstacles, each sits at distance gap from its anchor on one of the
// eight sides, and a lone label near an edge is moved inside.
func TestPlaceLabels(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 6))
	bounds := Box{0, 0, 400, 300}
	var reqs []LabelRequest
	var obst []Box
	for i := 0; i < 300; i++ {
		x, y := 400*r.Float64(), 300*r.Float64()
		reqs = append(reqs, LabelRequest{X: x, Y: y, W: 20 + 40*r.Float64(), H: 12})
		obst = append(obst, Box{x - 2, y - 2, x + 2, y + 2})
	}
	pos, placed := PlaceLabels(reqs, 5, bounds, obst)
	var boxes []Box
	n := 0
	for i, ok := range placed {
		if !ok {
			continue
		}
		n++
		b := Box{pos[i][0], pos[i][1], pos[i][0] + reqs[i].W, pos[i][1] + reqs[i].H}
		if b.X0 < bounds.X0-1e-9 || b.Y0 < bounds.Y0-1e-9 || b.X1 > bounds.X1+1e-9 || b.Y1 > bounds.Y1+1e-9 {
			t.Errorf("label %d at %v leaves the bounds", i, b)
		}
		for j, o := range boxes {
			if o.overlaps(b) {
				t.Errorf("label %d overlaps an earlier label (%d-th placed)", i, j)
			}
		}
		for j, o := range obst {
			if o.overlaps(b) {
				t.Errorf("label %d hides mean %d", i, j)
			}
		}
		boxes = append(boxes, b)
		// Distance from the anchor to the box: gap (sides) or about 0.7
		// gap per axis (diagonals).
		dx := max(b.X0-reqs[i].X, reqs[i].X-b.X1, 0)
		dy := max(b.Y0-reqs[i].Y, reqs[i].Y-b.Y1, 0)
		if dx > 5+1e-9 || dy > 5+1e-9 || (dx < 3 && dy < 3) {
			t.Errorf("label %d at (%v, %v) from its anchor", i, dx, dy)
		}
	}
	if n < 60 || n == len(reqs) {
		t.Errorf("%d of %d labels placed; expected a crowded but useful result", n, len(reqs))
	}
	p1, ok1 := PlaceLabels([]LabelRequest{{X: 398, Y: 150, W: 30, H: 12}}, 5, bounds, nil)
	if !ok1[0] || p1[0][0]+30 > 400 {
		t.Errorf("label at the right edge not moved left: %v %v", p1, ok1)
	}
}
