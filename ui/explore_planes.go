package ui

import (
	"fmt"

	"burescope/datasets"
)

// refreshTab updates the Explore tab's texts and enabled states.
func (x *explorer) refreshTab() {
	v := x.view.Load()
	d := x.dim()
	switch {
	case v != nil && v.mode == modeEmbedding:
		x.info.SetText(fmt.Sprintf("%s · %d items · d = %d · %s. Shown as loaded: no MDS run.",
			displayName(v.name), v.emb.Len(), d, familyText(v.emb.Family)))
	case v != nil && v.mode == modeRelations:
		x.info.SetText(fmt.Sprintf("Trained from the relations of %s · %d items · d = %d · epoch %d.",
			displayName(v.name), v.emb.Len(), d, v.epoch))
	case d > 0:
		x.info.SetText(fmt.Sprintf("The MDS fit of %s (d = %d). Open a trained embedding (JSON, .npy, .npz) to explore it as loaded.",
			displayName(x.a.sess.Dataset().Name), d))
	default:
		x.info.SetText("Nothing loaded.")
	}
	isNPY := v != nil && v.mode == modeEmbedding && datasets.IsNumPyPath(v.name)
	if isNPY {
		x.setRadio.Show()
	} else {
		x.setRadio.Hide()
	}
	// Planes apply to d >= 3 outside MDS (an MDS fit is 2-D or 3-D).
	var opts []string
	if v != nil && d >= 3 {
		if d == 3 {
			opts = append(opts, plane3D)
		}
		opts = append(opts, planePCA, planeItem, planeDiff)
	}
	x.planes.Options = opts
	if len(opts) == 0 {
		x.planes.Hide()
	} else {
		x.planes.Show()
		if x.planes.Selected != x.spec.kind {
			kind := x.spec.kind
			x.planes.Selected = kind // set without the callback
		}
		x.planes.Refresh()
	}
	x.planeWidgets()
	x.showKept()
}

// planeWidgets shows the item rows the chosen plane needs.
func (x *explorer) planeWidgets() {
	v := x.view.Load()
	on := v != nil && x.dim() >= 3
	if on && (x.spec.kind == planeItem || x.spec.kind == planeDiff) {
		x.rowA.Show()
	} else {
		x.rowA.Hide()
	}
	if on && x.spec.kind == planeDiff {
		x.rowB.Show()
	} else {
		x.rowB.Hide()
	}
	if x.spec.kind == planeDiff {
		x.itemA.SetPlaceHolder("from item")
	} else {
		x.itemA.SetPlaceHolder("item label")
	}
}

// showKept describes how much variance the plane keeps.
func (x *explorer) showKept() {
	v := x.view.Load()
	switch {
	case v == nil:
		x.kept.SetText("Planes apply to trained embeddings of dimension 3 and more (an MDS fit is drawn in its own 2-D or 3-D space).")
	case v.plane == nil && v.emb.Dim == 3:
		x.kept.SetText("d = 3 drawn in 3-D: drag to rotate, Shift-drag to pan, the fit button resets the view.")
	case v.plane == nil:
		x.kept.SetText(fmt.Sprintf("d = %d: drawn as it is.", v.emb.Dim))
	default:
		mean, lo := keptSummary(v.kept)
		s := fmt.Sprintf("Variance kept by the plane (tr PCPᵀ / tr C): mean %.1f%%, min %.1f%%.", 100*mean, 100*lo)
		if i := x.selected; i >= 0 && i < len(v.kept) {
			s += fmt.Sprintf(" %s: %.1f%%.", v.emb.Labels[i], 100*v.kept[i])
		}
		x.kept.SetText(s)
	}
}

// reproject rebuilds the view of the current embedding on the chosen
// plane, off the UI goroutine.
func (x *explorer) reproject() {
	v := x.view.Load()
	if v == nil {
		return
	}
	spec := x.spec
	if (spec.kind == planeItem && spec.a < 0) || (spec.kind == planeDiff && (spec.a < 0 || spec.b < 0)) {
		if x.selected >= 0 && spec.a < 0 {
			x.useSelection(false)
			return
		}
		x.kept.SetText("Pick the item(s) for this plane: type a label and press Enter, or click an ellipse and press the paste button.")
		return
	}
	x.projGen++
	gen := x.projGen
	if v.mode == modeRelations {
		x.rel.setSpec(spec) // the training's next updates use it too
	}
	x.a.loads.Add(1)
	go func() {
		defer x.a.loads.Done()
		nv, err := buildView(v.mode, v.name, v.ds, v.emb, spec, nil)
		if err == nil {
			nv.epoch = v.epoch
		}
		x.a.do(func() {
			cur := x.view.Load()
			if gen != x.projGen || cur == nil || cur.mode != v.mode || (v.mode == modeEmbedding && cur.emb != v.emb) {
				return // a newer plane, dataset or mode
			}
			if err != nil {
				x.a.showError("Cannot use this plane", err)
				return
			}
			x.install(nv, true)
		})
	}()
}

// setPlaneItem sets item A (or B) of the plane from a typed label.
func (x *explorer) setPlaneItem(second bool, label string) {
	i := findLabel(x.labels(), label)
	if i < 0 {
		x.a.showError("No such item", fmt.Errorf("no item matches %q", label))
		return
	}
	x.setPlaneIndex(second, i)
}

// useSelection sets item A (or B) of the plane to the selected item.
func (x *explorer) useSelection(second bool) {
	if x.selected < 0 {
		x.kept.SetText("Select an item first (click an ellipse or search).")
		return
	}
	x.setPlaneIndex(second, x.selected)
}

func (x *explorer) setPlaneIndex(second bool, i int) {
	labels := x.labels()
	if i < 0 || i >= len(labels) {
		return
	}
	if second {
		x.spec.b = i
		x.itemB.SetText(labels[i])
	} else {
		x.spec.a = i
		x.itemA.SetText(labels[i])
	}
	if x.spec.kind == planeItem && !second && x.a.set.View != "precision" {
		x.a.set.View = "precision"
		x.a.applyView()
		x.a.panel.sync()
	}
	if x.spec.kind == planeItem || (x.spec.kind == planeDiff && x.spec.a >= 0 && x.spec.b >= 0) {
		x.reproject()
	}
}

// resetPlaneItems empties the plane's item fields (a new embedding).
func (x *explorer) resetPlaneItems() {
	x.itemA.SetText("")
	x.itemB.SetText("")
}
