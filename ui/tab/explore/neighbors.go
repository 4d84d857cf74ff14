package explore

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"strings"

	"burescope/engine"
	"burescope/ui/view"
)

// neighbourOptions reads the ranking, k and rho from the Explore tab.
func (x *Tab) neighbourOptions() (engine.NeighborOptions, error) {
	opt := engine.NeighborOptions{By: engine.ByW2, K: 10, Rho: 1}
	for _, c := range neighbourChoices {
		if c.name == x.by.Selected {
			opt.By = c.by
		}
	}
	if k, err := strconv.Atoi(x.k.Selected); err == nil && k > 0 {
		opt.K = k
	}
	if opt.By == engine.ByCosine || opt.By == engine.ByMixture {
		rho, err := strconv.ParseFloat(strings.TrimSpace(x.rho.Text), 64)
		if err != nil || !(rho >= 0) || rho > 1e300 {
			return opt, fmt.Errorf("ρ %q: want a number >= 0", x.rho.Text)
		}
		opt.Rho = rho
	}
	return opt, nil
}

func (x *Tab) rhoEnable() {
	if x.by.Selected == neighbourChoices[2].name || x.by.Selected == neighbourChoices[3].name {
		x.rho.Enable()
	} else {
		x.rho.Disable()
	}
}

// ItemSelected is the app's selection callback (canvas click, search):
// item i becomes the neighbour query (-1 clears it).
func (x *Tab) ItemSelected(i int) {
	x.selected = i
	x.showKept()
	x.query(i)
}

// requery repeats the query after an option changed.
func (x *Tab) requery() {
	if x.selected >= 0 {
		x.query(x.selected)
	}
}

// clearNeighbours drops the list and the highlights (and cancels a
// running query).
func (x *Tab) clearNeighbours() {
	x.nbGen++
	if x.nbStop != nil {
		x.nbStop()
		x.nbStop = nil
	}
	x.selected = -1
	x.nbList, x.nbEmb = nil, nil
	x.list.UnselectAll()
	x.list.Refresh()
	x.nbTitle.SetText("Click an ellipse or search to list its neighbours.")
	x.setHighlight(nil)
}

// queryEmbedding returns the embedding the neighbours of the canvas come
// from: the explored one, or the newest MDS snapshot (copied off the UI
// goroutine by the caller's goroutine).
func (x *Tab) queryEmbedding() (func() *engine.Embedding, string) {
	if v := x.h.Shown(); v != nil {
		note := ""
		if v.Mode == view.ModeRelations {
			note = fmt.Sprintf(" (trained embedding at epoch %d)", v.Epoch)
		}
		return func() *engine.Embedding { return v.Emb }, note
	}
	snap := x.h.Snapshot()
	ds := x.h.Dataset()
	if snap == nil || ds == nil || snap.Scales == nil {
		return nil, ""
	}
	labels := ds.Labels
	return func() *engine.Embedding { return snap.Embedding(labels) }, fmt.Sprintf(" (MDS fit at iteration %d)", snap.Iter)
}

// query lists the nearest neighbours of item i on a goroutine, cancelling
// the previous query.
func (x *Tab) query(i int) {
	gen := x.nbGen + 1
	x.clearNeighbours() // bumps nbGen to gen
	if i < 0 {
		return
	}
	x.selected = i
	get, note := x.queryEmbedding()
	if get == nil {
		return
	}
	opt, err := x.neighbourOptions()
	if err != nil {
		x.nbTitle.SetText(err.Error())
		return
	}
	labels := x.h.Labels()
	name := fmt.Sprintf("item %d", i+1)
	if i < len(labels) {
		name = labels[i]
	}
	x.nbTitle.SetText(fmt.Sprintf("Neighbours of %s: computing…", name))
	ctx, cancel := context.WithCancel(context.Background())
	x.nbStop = cancel
	x.h.Go(func() {
		emb := get()
		var nbs []engine.Neighbor
		var err error
		if i >= emb.Len() {
			err = fmt.Errorf("item %d is not in the embedding", i)
		} else {
			nbs, err = engine.NearestNeighbors(ctx, emb, i, opt)
		}
		x.h.Do(func() {
			if gen != x.nbGen {
				return // a newer query or selection
			}
			cancel()
			x.nbStop = nil
			if err != nil {
				if !errors.Is(err, context.Canceled) {
					x.nbTitle.SetText(fmt.Sprintf("Neighbours of %s: %v", name, err))
				}
				return
			}
			x.nbEmb, x.nbList = emb, nbs
			order := "smallest W2 first"
			if !opt.By.Ascending() {
				order = "largest first"
			}
			x.nbTitle.SetText(fmt.Sprintf("%d neighbours of %s by %s, %s%s.", len(nbs), name, byShort(opt), order, note))
			x.list.UnselectAll()
			x.list.Refresh()
			x.list.ScrollToTop()
			items := make([]int, len(nbs))
			for k, nb := range nbs {
				items[k] = nb.Index
			}
			x.setHighlight(items)
		})
	})
}

func byShort(opt engine.NeighborOptions) string {
	switch opt.By {
	case engine.ByDot:
		return "[μ:ν]"
	case engine.ByCosine:
		return fmt.Sprintf("Bures cosine (ρ = %g)", opt.Rho)
	case engine.ByMixture:
		return fmt.Sprintf("S_B (ρ = %g)", opt.Rho)
	}
	return "W2"
}

// rowSelected selects and centres the neighbour in row id, which becomes
// the next query.
func (x *Tab) rowSelected(id int) {
	if id < 0 || id >= len(x.nbList) {
		return
	}
	j := x.nbList[id].Index
	x.h.Select([]int{j}, j)
	x.ItemSelected(j)
}
