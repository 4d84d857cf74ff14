package ui

import (
	"fmt"
	"io"
	"reflect"

	"fyne.io/fyne/v2"

	"burescope/datasets"
	"burescope/engine/emds"
	"burescope/ui/fit"
)

// preload is the first dataset's load and fit set-up (reading,
// distances, classical MDS, the backend, the initial evaluation), started
// by Run on a worker goroutine before the window is built, so that the
// two overlap. Only successes are kept: anything that fails is done
// again, and reported, by the ordinary load path.
type preload struct {
	name string
	st   fit.Settings
	logw io.Writer
	done chan struct{} // closed when the fields below are set
	ds   *datasets.Dataset
	opt  *emds.Optimizer // nil: not an exact fit, or it failed
	b    emds.Backend    // opt's backend
	desc string          // b's description
}

// initialSettings are the settings the app starts with: the saved ones,
// with the command line's dataset and backend on top.
func initialSettings(p fyne.Preferences, flags Flags) fit.Settings {
	st := LoadSettings(p, fit.DefaultSettings())
	if flags.Backend != "" {
		st.Backend = flags.Backend
	}
	if flags.Dataset != "" {
		st.Dataset = flags.Dataset
	}
	return st
}

// startPreload loads st.Dataset under st and builds its exact-pairs
// optimiser in the background (the backend's GL probe, if any, waits
// for the UI loop, as on the ordinary path). NumPy embeddings are not
// preloaded (their load has a progress bar of its own).
func startPreload(st fit.Settings, logw io.Writer) *preload {
	if datasets.IsNumPyPath(st.Dataset) {
		return nil
	}
	p := &preload{name: st.Dataset, st: st, logw: logw, done: make(chan struct{})}
	go func() {
		defer close(p.done)
		if st.Validate() != nil {
			return
		}
		ds, err := fit.LoadDataset(st.Dataset, st, "")
		if err != nil || ds.Dist == nil {
			return // an error, an embedding or relations: the load path decides
		}
		p.ds = ds
		if sampled, err := fit.UseSampled(st.Pairs, ds.Kind, ds.Len()); err != nil || sampled {
			return
		}
		p.opt, p.b, p.desc, _ = prepareAndOpen(ds, st, logw)
	}()
	return p
}

// prepareAndOpen builds the exact-pairs optimiser of ds under st on the
// backend st names, preparing it (classical MDS) while the backend opens
// (a GL probe waits for the UI loop). On error nothing is left open.
func prepareAndOpen(ds *datasets.Dataset, st fit.Settings, logw io.Writer) (*emds.Optimizer, emds.Backend, string, error) {
	var prep *emds.Prepared
	var prepErr error
	prepared := make(chan struct{})
	go func() {
		defer close(prepared)
		prep, prepErr = fit.Prepare(ds, st)
	}()
	b, desc, err := fit.OpenBackend(st.Backend, ds.Len(), fit.BackendOptions{OnMainThread: fyne.DoAndWait, Log: logw})
	<-prepared
	if prepErr != nil {
		if err == nil {
			b.Close()
		}
		return nil, nil, "", prepErr
	}
	if err != nil {
		return nil, nil, "", fmt.Errorf("backend %s: %w", st.Backend, err)
	}
	opt, err := prep.NewOptimizer(b)
	if err != nil {
		b.Close()
		return nil, nil, "", err
	}
	return opt, b, desc, nil
}

// take waits for p and returns it if it is the load of req under st;
// otherwise it releases what p built and returns nil.
func (p *preload) take(req loadRequest, st fit.Settings) *preload {
	if p == nil {
		return nil
	}
	<-p.done
	if req.Name == p.name && req.Metadata == "" && reflect.DeepEqual(st, p.st) && p.ds != nil {
		return p
	}
	if p.b != nil {
		p.b.Close()
	}
	return nil
}
