package view

import (
	"fmt"
	"sync"

	"burescope/render"
)

// Barycenters holds what the canvas draws as bold barycenters: those of
// every class (the View tab's toggle, in fit.Settings) and that of a
// selection (the View tab's command), computed on the frame goroutine and
// cached per scene so a frame that only pans does not recompute them. The
// zero value draws none.
type Barycenters struct {
	mu      sync.Mutex
	sel     []int  // items of the selection barycenter (nil: none)
	version uint64 // bumped by every change of sel or of the class toggle

	// Frame-goroutine cache.
	scene  *render.Scene // the scene the cache was computed for
	ver    uint64
	class  bool
	cached []render.SceneBarycenter
	err    error
}

// Changed bumps the version (a new frame is needed): the class toggle
// changed.
func (b *Barycenters) Changed() {
	b.mu.Lock()
	b.version++
	b.mu.Unlock()
}

// SetSelection sets the items of the selection barycenter (nil: none).
func (b *Barycenters) SetSelection(idx []int) {
	b.mu.Lock()
	b.sel = append([]int(nil), idx...)
	if len(idx) == 0 {
		b.sel = nil
	}
	b.version++
	b.mu.Unlock()
}

// Version is the frame key of the barycenters (Key.Barycenters).
func (b *Barycenters) Version() uint64 {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.version
}

// Decorate returns sc with the barycenters drawn on it (a copy; sc itself
// is never modified): the class barycenters when class is on and sc has
// fewer classes than items, and the selection's. Results are cached for
// the same scene pointer and version.
func (b *Barycenters) Decorate(sc *render.Scene, class bool) *render.Scene {
	b.mu.Lock()
	sel, ver := b.sel, b.version
	b.mu.Unlock()
	if sc == nil || (!class && sel == nil) {
		return sc
	}
	if b.scene != sc || b.ver != ver || b.class != class {
		b.scene, b.ver, b.class, b.cached, b.err = sc, ver, class, nil, nil
		if class && len(sc.Classes) == sc.Len() {
			if names, _ := render.ClassColors(sc.Classes); len(names) < sc.Len() {
				bs, err := render.ClassBarycenters(sc)
				b.cached, b.err = append(b.cached, bs...), err
			}
		}
		if valid := validItems(sel, sc.Len()); len(valid) > 0 {
			bc, err := render.SelectionBarycenter(sc, valid, nil)
			if err == nil {
				bc.Label = fmt.Sprintf("barycenter of %d items", len(valid))
				b.cached = append(b.cached, bc)
			} else if b.err == nil {
				b.err = err
			}
		}
	}
	if len(b.cached) == 0 {
		return sc
	}
	cp := *sc
	cp.Barycenters = append(append([]render.SceneBarycenter(nil), sc.Barycenters...), b.cached...)
	return &cp
}

// validItems keeps the indices of idx inside [0, n).
func validItems(idx []int, n int) []int {
	var out []int
	for _, i := range idx {
		if i >= 0 && i < n {
			out = append(out, i)
		}
	}
	return out
}
