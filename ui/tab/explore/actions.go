package explore

import "burescope/engine"

// The methods in this file do what a user does with the tab's widgets
// (the app's tests drive the tab through them) or read what it shows.

// SelectPlane picks a plane kind (view.Plane3D, ...) in the plane list.
func (x *Tab) SelectPlane(kind string) { x.planes.SetSelected(kind) }

// PlaneOptions returns the plane kinds offered.
func (x *Tab) PlaneOptions() []string { return append([]string(nil), x.planes.Options...) }

// SetPlaneItem types label into the plane's first (or second) item field
// and presses Enter.
func (x *Tab) SetPlaneItem(second bool, label string) { x.setPlaneItem(second, label) }

// SelectContextSet picks the NumPy file's context set (true) or its
// input set.
func (x *Tab) SelectContextSet(on bool) {
	if on {
		x.setRadio.SetSelected("Context set (c_)")
	} else {
		x.setRadio.SetSelected("Input set")
	}
}

// KeptText is the variance-kept line of the tab.
func (x *Tab) KeptText() string { return x.kept.Text }

// Note is the line below the canvas while a loaded embedding is shown.
func (x *Tab) Note() string { return x.embNote.Text }

// SetRanking enters rho, picks k and then the ranking by (its name as
// the Rank by list shows it), in that order, as a user would.
func (x *Tab) SetRanking(by, k, rho string) {
	x.rho.SetText(rho)
	x.k.SetSelected(k)
	x.by.SetSelected(by)
}

// Neighbours returns the listed neighbours and the item they are of
// (-1: none), and whether a query is still running.
func (x *Tab) Neighbours() (list []engine.Neighbor, of int, busy bool) {
	return append([]engine.Neighbor(nil), x.nbList...), x.selected, x.nbStop != nil
}

// SelectRow clicks row i of the neighbour list.
func (x *Tab) SelectRow(i int) { x.list.Select(i) }
