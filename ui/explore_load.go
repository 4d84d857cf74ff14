package ui

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"

	"burescope/datasets"
	"burescope/engine"
)

// progressEvery is the shortest interval between two progress-bar
// updates of a load (at most 20 a second).
const progressEvery = 50 * time.Millisecond

// handlesLoad reports whether the explorer loads req itself (NumPy
// files: large, with a progress bar and a Cancel button).
func (x *explorer) handlesLoad(req loadRequest) bool { return datasets.IsNumPyPath(req.Name) }

// labelsBeside returns the labels file given with req, or one found
// beside a NumPy file: STEM_labels.txt, STEM.labels.txt or labels.txt.
func labelsBeside(req loadRequest) string {
	if req.Metadata != "" {
		return req.Metadata
	}
	dir, base := filepath.Split(req.Name)
	stem := strings.TrimSuffix(base, filepath.Ext(base))
	for _, name := range []string{stem + "_labels.txt", stem + ".labels.txt", "labels.txt"} {
		p := filepath.Join(dir, name)
		if st, err := os.Stat(p); err == nil && st.Mode().IsRegular() {
			return p
		}
	}
	return ""
}

// loadNumPy loads a NumPy embedding on the calling goroutine (the app's
// loader goroutine) with a progress bar and a Cancel button below the
// canvas. A cancelled load returns nil and changes nothing; a failed one
// returns the loader's error (the app shows it and keeps its state).
func (x *explorer) loadNumPy(req loadRequest, st Settings, gen int) error {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	x.loadMu.Lock()
	if x.loadCancel != nil {
		x.loadCancel() // a newer load replaces the running one
	}
	x.loadID++
	id := x.loadID
	x.loadCancel = cancel
	set := x.npySet
	x.loadMu.Unlock()
	name := displayName(req.Name)
	x.a.do(func() {
		if x.currentLoad() != id {
			return
		}
		x.loading = true
		x.loadLabel.SetText("Loading " + name + "…")
		x.loadBar.SetValue(0)
		x.loadStop.Enable()
		x.updateBottom()
	})
	defer x.a.do(func() {
		x.loadMu.Lock()
		last := x.loadID == id
		if last {
			x.loadCancel = nil
		}
		x.loadMu.Unlock()
		if last {
			x.loading = false
			x.updateBottom()
		}
	})
	var lastPost time.Time
	progress := func(done, total int) {
		if total <= 0 || time.Since(lastPost) < progressEvery {
			return
		}
		lastPost = time.Now()
		f := float64(done) / float64(total)
		x.a.do(func() {
			if x.currentLoad() == id {
				x.loadBar.SetValue(f)
			}
		})
	}
	opt := datasets.NPYOptions{Labels: labelsBeside(req), Set: set}
	ds, err := x.loadNPY(ctx, req.Name, opt, progress)
	if errors.Is(err, context.Canceled) {
		fmt.Fprintf(x.a.log, "burescope: load of %s cancelled\n", req.Name)
		return nil
	}
	if err != nil {
		return err
	}
	return x.showEmbedding(ds, req.Name, st, gen)
}

// currentLoad returns the id of the newest load.
func (x *explorer) currentLoad() int {
	x.loadMu.Lock()
	defer x.loadMu.Unlock()
	return x.loadID
}

// cancelLoad cancels the running load (the Cancel button).
func (x *explorer) cancelLoad() {
	x.loadMu.Lock()
	c := x.loadCancel
	x.loadMu.Unlock()
	if c != nil {
		c()
		if x.loadStop != nil {
			x.loadLabel.SetText("Cancelling…")
			x.loadStop.Disable()
		}
	}
}

// defaultSpec is the plane a new embedding of dimension d is first shown
// on: 3-D for d = 3, PCA of the means above.
func defaultSpec(d int) planeSpec {
	if d == 3 {
		return planeSpec{kind: plane3D, a: -1, b: -1}
	}
	return planeSpec{kind: planePCA, a: -1, b: -1}
}

// showEmbedding shows a loaded embedding dataset as it is (no MDS). It
// builds the first view on the calling goroutine, then switches the app
// to it on the UI goroutine unless a newer load was requested.
func (x *explorer) showEmbedding(ds *datasets.Dataset, name string, st Settings, gen int) error {
	emb := ds.Embedding
	if emb == nil {
		return fmt.Errorf("%s: no embedding in the file", name)
	}
	if len(emb.Labels) != emb.Len() {
		return fmt.Errorf("%s: %d labels for %d items", name, len(emb.Labels), emb.Len())
	}
	v, err := buildView(modeEmbedding, name, ds, emb, defaultSpec(emb.Dim), nil)
	if err != nil {
		return fmt.Errorf("%s: %w", name, err)
	}
	x.a.do(func() {
		if gen != x.a.loadGen {
			return // a newer request is on its way
		}
		x.enterEmbedding(ds, v, name, st)
	})
	return nil
}

// enterEmbedding switches the app to a loaded embedding (UI goroutine).
func (x *explorer) enterEmbedding(ds *datasets.Dataset, v *embView, name string, st Settings) {
	a := x.a
	x.rel.stopTraining(false)
	a.sess.Pause()
	st.Dataset = name
	a.set = st
	x.clearNeighbours()
	x.resetPlaneItems()
	a.loop.Select(nil, -1)
	a.search.SetText("")
	a.canvas.SetMessage("")
	x.install(v, true)
	a.panel.showDataset(ds)
	if !strings.HasPrefix(name, datasets.BuiltinPrefix) {
		a.panel.setRecent(AddRecentFile(a.fa.Preferences(), name))
		SetLastDir(a.fa.Preferences(), filepath.Dir(name))
	}
	a.win.SetTitle("Burescope — " + displayName(name))
	x.showTab()
	a.readyOnce.Do(func() {
		fmt.Fprintf(a.log, "burescope: ready dataset=%s n=%d dim=%d embedding (no MDS)\n", name, v.emb.Len(), v.emb.Dim)
	})
	x.embNote.SetText(embeddingNote(v.emb))
	a.refreshStatus()
}

// embeddingNote is the line below the canvas that says why nothing runs.
func embeddingNote(e *engine.Embedding) string {
	return fmt.Sprintf("%d items in d = %d, shown as loaded: a trained embedding has no distances to fit, so the MDS run controls are off. "+
		"Planes and nearest neighbours: Explore tab.", e.Len(), e.Dim)
}

// showTab brings the Explore tab to the front.
func (x *explorer) showTab() {
	for _, it := range x.a.panel.tabs.Items {
		if it.Text == "Explore" {
			x.a.panel.tabs.Select(it)
			return
		}
	}
}
