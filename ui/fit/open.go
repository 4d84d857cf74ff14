package fit

import (
	"context"
	"errors"
	"fmt"
	"math"

	"burescope/datasets"
	"burescope/engine/emds"
)

// Opened is a fit opened on a dataset by OpenFit, ready to be installed in
// a Session (the app) or run (the command line): exactly one of Optimizer
// (all n(n-1)/2 pairs) and Source (sampled pairs) is set. The backend
// belongs to the Opened until a Session takes it or Close releases it.
type Opened struct {
	Dataset  *datasets.Dataset
	Settings Settings
	// Backend is the stress backend the fit runs on and Desc its
	// description for the status bar and the command line's JSON.
	Backend emds.Backend
	Desc    string
	// Optimizer is the exact fit, its initial state evaluated.
	Optimizer *emds.Optimizer
	// Source and Sampled are the sampled-pair fit (emds.FitSampled) and
	// First its initial state with the stress-1 estimate's standard
	// error FirstSE.
	Source  emds.PairSource
	Sampled emds.SampledOptions
	First   *emds.Snapshot
	FirstSE float64
}

// IsSampled reports whether o fits sampled pairs.
func (o *Opened) IsSampled() bool { return o.Source != nil }

// Close releases the backend of a fit that no session took.
func (o *Opened) Close() {
	if o != nil && o.Backend != nil {
		o.Backend.Close()
		o.Backend = nil
	}
}

// OpenHow says how OpenFit reaches the platform and what it adds to the
// settings; the zero value opens st.Backend with no extras.
type OpenHow struct {
	// Backend opens st.Backend (OnMainThread, Log, threads, roots).
	Backend BackendOptions
	// Given, when not nil, is used instead of opening st.Backend (with
	// GivenDesc as its description): tests and benchmarks that hold a
	// backend already. OpenFit owns it from the call on.
	Given     emds.Backend
	GivenDesc string
	// Adjust, when not nil, edits the exact fit's optimiser options after
	// the settings are applied (the command line's --init FILE).
	Adjust func(*emds.Options) error
	// Epochs overrides the sampled fit's epoch count (0: the default).
	Epochs int
}

// OpenFit is the one entrance to a fit, used by the app, its preload and
// the command line: it decides once between exact and sampled pairs
// (UseSampled), builds the problem (distances at any scale are
// normalised inside engine/emds), opens the backend while classical MDS
// runs, and evaluates the initial state. On error nothing is left open.
func OpenFit(ds *datasets.Dataset, st Settings, how OpenHow) (*Opened, error) {
	fail := func(err error) (*Opened, error) {
		if how.Given != nil {
			how.Given.Close()
		}
		return nil, err
	}
	if ds == nil || (ds.Dist == nil && ds.Embedding == nil && ds.Features == nil && ds.Edges == nil) {
		return fail(fmt.Errorf("%s: no distances to embed (a %s file)", nameOf(ds), kindOf(ds)))
	}
	sampled, err := UseSampled(st.Pairs, ds.Kind, ds.Len())
	if err != nil {
		return fail(err)
	}
	if sampled {
		return openSampled(ds, st, how)
	}
	var prep *emds.Prepared
	var prepErr error
	prepared := make(chan struct{})
	go func() {
		defer close(prepared)
		dist, opt, err := Problem(ds, st)
		if err == nil && how.Adjust != nil {
			err = how.Adjust(&opt)
		}
		if err != nil {
			prepErr = err
			return
		}
		prep, prepErr = emds.Prepare(ds.Len(), dist, opt)
	}()
	b, desc, err := how.open(st, ds.Len())
	<-prepared
	if prepErr != nil {
		if err == nil {
			b.Close()
		}
		return nil, prepErr
	}
	if err != nil {
		return nil, err
	}
	opt, err := prep.NewOptimizer(b)
	if err != nil {
		b.Close()
		return nil, err
	}
	return &Opened{Dataset: ds, Settings: st, Backend: b, Desc: desc, Optimizer: opt}, nil
}

// open returns the backend how asks for.
func (how OpenHow) open(st Settings, n int) (emds.Backend, string, error) {
	if how.Given != nil {
		return how.Given, how.GivenDesc, nil
	}
	b, desc, err := OpenBackend(st.Backend, n, how.Backend)
	if err != nil {
		return nil, "", fmt.Errorf("backend %s: %w", st.Backend, err)
	}
	return b, desc, nil
}

// openSampled is OpenFit on the sampled path: the pair source, the
// options, and the initial state (principal components and the first
// stress-1 estimate; this runs the neighbour search once).
func openSampled(ds *datasets.Dataset, st Settings, how OpenHow) (*Opened, error) {
	src, err := PairSource(ds)
	if err == nil {
		if e := SampledSupports(st); e != nil {
			err = fmt.Errorf("%s: %w", ds.Name, e)
		}
	}
	var opt emds.SampledOptions
	if err == nil {
		opt, err = SampledOptions(ds, st)
	}
	if err != nil {
		if how.Given != nil {
			how.Given.Close()
		}
		return nil, err
	}
	if how.Epochs > 0 {
		opt.Epochs = how.Epochs
	}
	var first *emds.Snapshot
	var se float64
	ctx, cancel := context.WithCancel(context.Background())
	o := opt
	o.Publish = func(sn *emds.Snapshot) { first = sn; cancel() }
	res, err := emds.FitSampled(ctx, src, o, func(_ int, _, s float64) { se = s })
	cancel()
	if err != nil && !errors.Is(err, context.Canceled) {
		if how.Given != nil {
			how.Given.Close()
		}
		return nil, err
	}
	if first == nil && res != nil {
		first, se = res.Snapshot, res.Stress1SE
	}
	b, desc, err := how.open(st, ds.Len())
	if err != nil {
		return nil, err
	}
	if math.IsNaN(se) {
		se = 0
	}
	return &Opened{Dataset: ds, Settings: st, Backend: b, Desc: desc, Source: src, Sampled: opt, First: first, FirstSE: se}, nil
}
