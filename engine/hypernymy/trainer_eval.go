package hypernymy

import (
	"context"
	"errors"
	"math"
)

// evaluateNow computes the reconstruction scores of the current state
// under both protocols and on the relations with self pairs (one
// computation of the scores) and records them in the history, once per
// epoch.
func (t *Trainer) evaluateNow(ctx context.Context) error {
	if n := len(t.evals); n > 0 && t.evals[n-1].Epoch == t.epoch {
		return nil
	}
	k := EvalStride(t.n, t.cfg.EvalRows)
	r, err := t.evaluate(ctx, []*hypGraph{t.input.everyKth(k), t.sym.everyKth(k), t.undir.everyKth(k)})
	if err != nil {
		return err
	}
	e := Eval{Epoch: t.epoch, Loss: t.lastLoss, MeanRank: r[0].MeanRank, MAP: r[0].MAP,
		SymMeanRank: r[1].MeanRank, SymMAP: r[1].MAP,
		UndirMeanRank: r[2].MeanRank, UndirMAP: r[2].MAP, TrainSeconds: t.trainSecs,
		Rows: r[0].Items, Queries: t.input.queryCount()}
	if len(t.input.adj) == 0 { // only self pairs were given
		e.MeanRank, e.MAP = e.SymMeanRank, e.SymMAP
		e.UndirMeanRank, e.UndirMAP = math.NaN(), math.NaN()
		e.Rows, e.Queries = r[1].Items, t.sym.queryCount()
	}
	t.evals = append(t.evals, e)
	return nil
}

// Evaluate evaluates the current state now (if it was not yet at this
// epoch), publishes and returns the snapshot.
func (t *Trainer) Evaluate(ctx context.Context) (*Progress, error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	err := t.evaluateNow(ctx)
	p := t.snapshot()
	t.latest.Store(p)
	return p, err
}

// EvaluateOn returns the reconstruction scores of the current embedding on
// other relations (pairs of item indices) under the Directed protocol.
func (t *Trainer) EvaluateOn(ctx context.Context, relations [][2]int) (Reconstruction, error) {
	return t.EvaluateProtocolOn(ctx, relations, Directed)
}

// EvaluateProtocolOn returns the reconstruction scores of the current
// embedding on other relations under protocol (Directed or Undirected).
func (t *Trainer) EvaluateProtocolOn(ctx context.Context, relations [][2]int, protocol string) (Reconstruction, error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	g, err := protocolGraph(t.n, relations, protocol)
	if err != nil {
		return Reconstruction{}, err
	}
	r, err := t.evaluate(ctx, []*hypGraph{g})
	if err != nil {
		return Reconstruction{}, err
	}
	return r[0], nil
}

func (t *Trainer) evaluate(ctx context.Context, graphs []*hypGraph) ([]Reconstruction, error) {
	if err := t.refreshCache(); err != nil {
		return nil, err
	}
	var nonEmpty []*hypGraph
	for _, g := range graphs {
		if len(g.adj) > 0 {
			nonEmpty = append(nonEmpty, g)
		}
	}
	if len(nonEmpty) == 0 {
		return nil, errors.New("reconstruction: no relations")
	}
	var r []Reconstruction
	var err error
	if t.n <= hypDenseRowsMax {
		var rows RowScorer
		if rows, err = t.cache.denseRows(ctx, t.means, t.cfg.Workers); err != nil {
			return nil, err
		}
		r, err = evaluateGraphs(ctx, nonEmpty, rows, t.cfg.Workers)
	} else {
		r, _, err = t.cache.evaluatePruned(ctx, t.means, nonEmpty, t.cfg.Workers)
	}
	if err != nil {
		return nil, err
	}
	out := make([]Reconstruction, len(graphs))
	for i, k := 0, 0; i < len(graphs); i++ {
		if len(graphs[i].adj) > 0 {
			out[i] = r[k]
			k++
		}
	}
	return out, nil
}
