package explore

import (
	"fmt"

	"burescope/datasets"
	"burescope/ui/fit"
	"burescope/ui/view"
)

// Refresh updates the Explore tab's texts and enabled states.
func (x *Tab) Refresh() {
	v := x.h.Shown()
	d := x.dim()
	switch {
	case v != nil && v.Mode == view.ModeEmbedding:
		x.info.SetText(fmt.Sprintf("%s · %d items · d = %d · %s. Shown as loaded: no MDS run.",
			fit.DisplayName(v.Name), v.Emb.Len(), d, familyText(v.Emb.Family)))
	case v != nil && v.Mode == view.ModeRelations:
		x.info.SetText(fmt.Sprintf("Trained from the relations of %s · %d items · d = %d · epoch %d.",
			fit.DisplayName(v.Name), v.Emb.Len(), d, v.Epoch))
	case d > 0:
		x.info.SetText(fmt.Sprintf("The MDS fit of %s (d = %d). Open a trained embedding (JSON, .npy, .npz) to explore it as loaded.",
			fit.DisplayName(x.h.Dataset().Name), d))
	default:
		x.info.SetText("Nothing loaded.")
	}
	isNPY := v != nil && v.Mode == view.ModeEmbedding && datasets.IsNumPyPath(v.Name)
	if isNPY {
		x.setRadio.Show()
	} else {
		x.setRadio.Hide()
	}
	// Planes apply to d >= 3 outside MDS (an MDS fit is 2-D or 3-D).
	var opts []string
	if v != nil && d >= 3 {
		if d == 3 {
			opts = append(opts, view.Plane3D)
		}
		opts = append(opts, view.PlanePCA, view.PlaneItem, view.PlaneDiff)
	}
	x.planes.Options = opts
	if len(opts) == 0 {
		x.planes.Hide()
	} else {
		x.planes.Show()
		if x.planes.Selected != x.spec.Kind {
			kind := x.spec.Kind
			x.planes.Selected = kind // set without the callback
		}
		x.planes.Refresh()
	}
	x.planeWidgets()
	x.showKept()
}

// planeWidgets shows the item rows the chosen plane needs.
func (x *Tab) planeWidgets() {
	v := x.h.Shown()
	on := v != nil && x.dim() >= 3
	if on && (x.spec.Kind == view.PlaneItem || x.spec.Kind == view.PlaneDiff) {
		x.rowA.Show()
	} else {
		x.rowA.Hide()
	}
	if on && x.spec.Kind == view.PlaneDiff {
		x.rowB.Show()
	} else {
		x.rowB.Hide()
	}
	if x.spec.Kind == view.PlaneDiff {
		x.itemA.SetPlaceHolder("from item")
	} else {
		x.itemA.SetPlaceHolder("item label")
	}
}

// showKept describes how much variance the plane keeps.
func (x *Tab) showKept() {
	v := x.h.Shown()
	switch {
	case v == nil:
		x.kept.SetText("Planes apply to trained embeddings of dimension 3 and more (an MDS fit is drawn in its own 2-D or 3-D space).")
	case v.Plane == nil && v.Emb.Dim == 3:
		x.kept.SetText("d = 3 drawn in 3-D: drag to rotate, Shift-drag to pan, the fit button resets the view.")
	case v.Plane == nil:
		x.kept.SetText(fmt.Sprintf("d = %d: drawn as it is.", v.Emb.Dim))
	default:
		mean, lo := view.KeptSummary(v.Kept)
		s := fmt.Sprintf("Variance kept by the plane (tr PCPᵀ / tr C): mean %.1f%%, min %.1f%%.", 100*mean, 100*lo)
		if i := x.selected; i >= 0 && i < len(v.Kept) {
			s += fmt.Sprintf(" %s: %.1f%%.", v.Emb.Labels[i], 100*v.Kept[i])
		}
		x.kept.SetText(s)
	}
}

// reproject rebuilds the view of the current embedding on the chosen
// plane, off the UI goroutine.
func (x *Tab) reproject() {
	v := x.h.Shown()
	if v == nil {
		return
	}
	spec := x.spec
	if (spec.Kind == view.PlaneItem && spec.A < 0) || (spec.Kind == view.PlaneDiff && (spec.A < 0 || spec.B < 0)) {
		if x.selected >= 0 && spec.A < 0 {
			x.useSelection(false)
			return
		}
		x.kept.SetText("Pick the item(s) for this plane: type a label and press Enter, or click an ellipse and press the paste button.")
		return
	}
	x.projGen++
	gen := x.projGen
	if v.Mode == view.ModeRelations {
		x.h.PlaneChanged(spec) // the training's next updates use it too
	}
	x.h.Go(func() {
		nv, err := view.BuildView(v.Mode, v.Name, v.DS, v.Emb, spec, nil)
		if err == nil {
			nv.Epoch = v.Epoch
		}
		x.h.Do(func() {
			cur := x.h.Shown()
			if gen != x.projGen || cur == nil || cur.Mode != v.Mode || (v.Mode == view.ModeEmbedding && cur.Emb != v.Emb) {
				return // a newer plane, dataset or mode
			}
			if err != nil {
				x.h.ShowError("Cannot use this plane", err)
				return
			}
			x.h.Install(nv, true)
		})
	})
}

// setPlaneItem sets item A (or B) of the plane from a typed label.
func (x *Tab) setPlaneItem(second bool, label string) {
	i := fit.FindLabel(x.h.Labels(), label)
	if i < 0 {
		x.h.ShowError("No such item", fmt.Errorf("no item matches %q", label))
		return
	}
	x.setPlaneIndex(second, i)
}

// useSelection sets item A (or B) of the plane to the selected item.
func (x *Tab) useSelection(second bool) {
	if x.selected < 0 {
		x.kept.SetText("Select an item first (click an ellipse or search).")
		return
	}
	x.setPlaneIndex(second, x.selected)
}

func (x *Tab) setPlaneIndex(second bool, i int) {
	labels := x.h.Labels()
	if i < 0 || i >= len(labels) {
		return
	}
	if second {
		x.spec.B = i
		x.itemB.SetText(labels[i])
	} else {
		x.spec.A = i
		x.itemA.SetText(labels[i])
	}
	if x.spec.Kind == view.PlaneItem && !second {
		x.h.SetEllipses("precision")
	}
	if x.spec.Kind == view.PlaneItem || (x.spec.Kind == view.PlaneDiff && x.spec.A >= 0 && x.spec.B >= 0) {
		x.reproject()
	}
}

// resetPlaneItems empties the plane's item fields (a new embedding).
func (x *Tab) resetPlaneItems() {
	x.itemA.SetText("")
	x.itemB.SetText("")
}
