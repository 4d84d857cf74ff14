package launch

import (
	"io"
	"reflect"

	"fyne.io/fyne/v2"

	"burescope/datasets"
	"burescope/ui/fit"
	"burescope/ui/prefs"
)

// Preload is the first dataset's load and fit set-up (reading,
// distances, classical MDS, the backend, the initial evaluation), started
// by Run on a worker goroutine before the window is built, so that the
// two overlap. Only successes are kept: anything that fails is done
// again, and reported, by the ordinary load path.
type Preload struct {
	name string
	st   fit.Settings
	logw io.Writer
	done chan struct{} // closed when the fields below are set
	ds   *datasets.Dataset
	fit  *fit.Opened // nil: it failed (the load path opens it again)
}

// InitialSettings are the settings the app starts with: the saved ones,
// with the command line's dataset and backend on top.
func InitialSettings(p fyne.Preferences, flags Flags) fit.Settings {
	st := prefs.LoadSettings(p, fit.DefaultSettings())
	if flags.Backend != "" {
		st.Backend = flags.Backend
	}
	if flags.Dataset != "" {
		st.Dataset = flags.Dataset
	}
	return st
}

// StartPreload loads st.Dataset under st and opens its fit (fit.OpenFit)
// in the background (the backend's GL probe, if any, waits
// for the UI loop, as on the ordinary path). NumPy embeddings are not
// preloaded (their load has a progress bar of its own).
func StartPreload(st fit.Settings, logw io.Writer) *Preload {
	if datasets.IsNumPyPath(st.Dataset) {
		return nil
	}
	p := &Preload{name: st.Dataset, st: st, logw: logw, done: make(chan struct{})}
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
		p.fit, _ = fit.OpenFit(ds, st, fit.OpenHow{Backend: fit.BackendOptions{OnMainThread: fyne.DoAndWait, Log: logw}})
	}()
	return p
}

// Opened returns the fit the preload opened, or nil (no preload, or it
// failed).
func (p *Preload) Opened() *fit.Opened {
	if p == nil {
		return nil
	}
	return p.fit
}

// Dataset returns the dataset the preload read (p must have been taken).
func (p *Preload) Dataset() *datasets.Dataset { return p.ds }

// Take waits for p and returns it if it is the load of the file name
// (with no metadata file) under st; otherwise it releases what p built
// and returns nil.
func (p *Preload) Take(name, metadata string, st fit.Settings) *Preload {
	if p == nil {
		return nil
	}
	<-p.done
	if name == p.name && metadata == "" && reflect.DeepEqual(st, p.st) && p.ds != nil {
		return p
	}
	p.fit.Close()
	return nil
}
