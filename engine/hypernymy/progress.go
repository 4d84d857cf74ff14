package hypernymy

import (
	"burescope/engine"
	"fmt"
	"math"
)

// Eval is one evaluation of a training run: a point of the live
// mean-rank / MAP curve.
type Eval struct {
	Epoch       int     // epochs completed when it was taken
	Loss        float64 // mean loss per positive relation of that epoch
	MeanRank    float64 // on the input relations (see Progress)
	MAP         float64
	SymMeanRank float64 // on the input relations with the self pairs
	SymMAP      float64
	// UndirMeanRank and UndirMAP are the scores under the Undirected
	// protocol (ancestors and descendants are positives).
	UndirMeanRank, UndirMAP float64
	TrainSeconds            float64 // training wall time so far (evaluations excluded)
	// Rows is the number of query rows ranked under the input relations
	// (the items with a relation, or a sample of them: Config.EvalRows);
	// Queries the number of rows a full evaluation ranks. Rows < Queries
	// marks the scores above as a sampled estimate.
	Rows, Queries int
}

// Progress is an immutable snapshot of a Trainer: safe
// to hand to another goroutine (the GUI) as it is. Nothing in it is ever
// changed after it is published (Losses and Evals may share their backing
// arrays with later snapshots, whose extra elements they do not see).
type Progress struct {
	Epoch  int // epochs completed
	Epochs int // epochs Run trains for (Config.Epochs)
	Done   bool
	Loss   float64 // mean loss per positive relation of the last epoch (NaN before the first)
	// Evaluated says that the scores below were computed at this Epoch;
	// otherwise they are those of the latest evaluation (NaN if none).
	Evaluated bool
	// MeanRank and MAP are the reconstruction scores on the input
	// relations (deduplicated, no added self pairs: the Poincaré
	// embeddings protocol, u itself not a candidate); 1 is best for both.
	MeanRank, MAP float64
	// SymMeanRank and SymMAP are the same on the input relations with
	// the self pairs (u, u) of the symmetrisation (equal to MeanRank and
	// MAP under NoSelfPairs).
	SymMeanRank, SymMAP float64
	// UndirMeanRank and UndirMAP are the scores under the Undirected
	// protocol (the paper's authors' evaluation), whatever the training
	// protocol.
	UndirMeanRank, UndirMAP float64
	// EvalRows and EvalQueries are the latest evaluation's Eval.Rows and
	// Eval.Queries (0 when none).
	EvalRows, EvalQueries int
	// EpochSeconds is the wall time of the last epoch (evaluation excluded);
	// TrainSeconds the total over all epochs.
	EpochSeconds, TrainSeconds float64
	N, Dim                     int
	Means                      []float64 // n*Dim
	Scales                     []float64 // n*Dim*Dim scales A = L L^T + eps I
	Losses                     []float64 // mean loss of every epoch so far
	Evals                      []Eval
}

// Embedding returns the snapshot as a gaussian engine.Embedding with the given
// labels (len N); means and scales are copied.
func (p *Progress) Embedding(labels []string) (*engine.Embedding, error) {
	if len(labels) != p.N {
		return nil, fmt.Errorf("hypernymy: %d labels for %d items", len(labels), p.N)
	}
	return &engine.Embedding{Family: engine.Gaussian(), Dim: p.Dim, Labels: append([]string(nil), labels...),
		Means: append([]float64(nil), p.Means...), Scales: append([]float64(nil), p.Scales...)}, nil
}

// snapshot copies the current state into a new Progress.
func (t *Trainer) snapshot() *Progress {
	p := &Progress{Epoch: t.epoch, Epochs: t.cfg.Epochs, Done: t.epoch >= t.cfg.Epochs,
		Loss: t.lastLoss, EpochSeconds: t.lastEpoch, TrainSeconds: t.trainSecs,
		N: t.n, Dim: t.d, Means: append([]float64(nil), t.means...),
		Losses: t.losses[:len(t.losses):len(t.losses)], Evals: t.evals[:len(t.evals):len(t.evals)],
		MeanRank: math.NaN(), MAP: math.NaN(), SymMeanRank: math.NaN(), SymMAP: math.NaN(),
		UndirMeanRank: math.NaN(), UndirMAP: math.NaN()}
	if len(t.evals) > 0 {
		e := t.evals[len(t.evals)-1]
		p.Evaluated = e.Epoch == t.epoch
		p.MeanRank, p.MAP, p.SymMeanRank, p.SymMAP = e.MeanRank, e.MAP, e.SymMeanRank, e.SymMAP
		p.UndirMeanRank, p.UndirMAP = e.UndirMeanRank, e.UndirMAP
		p.EvalRows, p.EvalQueries = e.Rows, e.Queries
	}
	dd := t.d * t.d
	p.Scales = make([]float64, t.n*dd)
	for i := 0; i < t.n; i++ {
		copy(p.Scales[i*dd:(i+1)*dd], engine.FactorProduct(t.fact[i*dd:(i+1)*dd], t.d, t.d, t.cfg.Eps))
	}
	return p
}
