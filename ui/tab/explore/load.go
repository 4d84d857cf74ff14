package explore

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"

	"burescope/datasets"
	"burescope/ui/fit"
)

// progressEvery is the shortest interval between two progress-bar
// updates of a load (at most 20 a second).
const progressEvery = 50 * time.Millisecond

// labelsBeside returns the labels file metadata given with a NumPy file
// name, or one found beside it: STEM_labels.txt, STEM.labels.txt or
// labels.txt.
func labelsBeside(name, metadata string) string {
	if metadata != "" {
		return metadata
	}
	dir, base := filepath.Split(name)
	stem := strings.TrimSuffix(base, filepath.Ext(base))
	for _, name := range []string{stem + "_labels.txt", stem + ".labels.txt", "labels.txt"} {
		p := filepath.Join(dir, name)
		if st, err := os.Stat(p); err == nil && st.Mode().IsRegular() {
			return p
		}
	}
	return ""
}

// LoadNumPy loads the NumPy embedding name (with the labels file
// metadata, "" to look beside it) on the calling goroutine (the app's
// loader goroutine) with a progress bar and a Cancel button below the
// canvas. A cancelled load returns nil, nil and changes nothing; a failed
// one returns the loader's error (the app shows it and keeps its state).
func (x *Tab) LoadNumPy(name, metadata string) (*datasets.Dataset, error) {
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
	shown := fit.DisplayName(name)
	x.h.Do(func() {
		if x.currentLoad() != id {
			return
		}
		x.loading = true
		x.loadLabel.SetText("Loading " + shown + "…")
		x.loadBar.SetValue(0)
		x.loadStop.Enable()
		x.h.BottomChanged()
	})
	defer x.h.Do(func() {
		x.loadMu.Lock()
		last := x.loadID == id
		if last {
			x.loadCancel = nil
		}
		x.loadMu.Unlock()
		if last {
			x.loading = false
			x.h.BottomChanged()
		}
	})
	var lastPost time.Time
	progress := func(done, total int) {
		if total <= 0 || time.Since(lastPost) < progressEvery {
			return
		}
		lastPost = time.Now()
		f := float64(done) / float64(total)
		x.h.Do(func() {
			if x.currentLoad() == id {
				x.loadBar.SetValue(f)
			}
		})
	}
	opt := datasets.NPYOptions{Labels: labelsBeside(name, metadata), Set: set}
	ds, err := x.loadNPY(ctx, name, opt, progress)
	if errors.Is(err, context.Canceled) {
		fmt.Fprintf(x.h.Log(), "burescope: load of %s cancelled\n", name)
		return nil, nil
	}
	return ds, err
}

// currentLoad returns the id of the newest load.
func (x *Tab) currentLoad() int {
	x.loadMu.Lock()
	defer x.loadMu.Unlock()
	return x.loadID
}

// CancelLoad cancels the running load (the Cancel button).
func (x *Tab) CancelLoad() {
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

// SetLoader replaces the NumPy loader (tests: a slow or blocking one).
func (x *Tab) SetLoader(f func(ctx context.Context, path string, opt datasets.NPYOptions, progress func(done, total int)) (*datasets.Dataset, error)) {
	x.loadNPY = f
}
