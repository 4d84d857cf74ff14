package hypernymy

import (
	"fmt"
	"math"
	"runtime"
)

// Hypernymy optimisers.
const (
	SGD  = "sgd"  // plain stochastic gradient descent (the paper's choice)
	Adam = "adam" // Adam (emds.Adam: beta1 0.9, beta2 0.999, eps emds.AdamEps)
)

// Protocols: how relations are trained on and which items count as
// positives when ranking (docs/hypernymy.md, "Two protocols").
const (
	// Directed trains on the (child, ancestor) pairs (and the self pairs
	// unless NoSelfPairs) with negatives drawn uniformly among the items
	// w != u that are not ancestors of u; it is the Poincaré embeddings
	// reconstruction protocol.
	Directed = "directed"
	// Undirected is the protocol of the paper's authors' code: it trains
	// on every pair and its reverse (and the self pairs unless
	// NoSelfPairs), draws negatives in proportion to their degree among
	// the items that are neither ancestors nor descendants of u (nor u,
	// which is its own positive; with NoSelfPairs u itself may be drawn,
	// as in the authors' published sampler), and ranks ancestors and
	// descendants together as positives with the query item among the
	// candidates.
	Undirected = "undirected"
)

// hypShards is the fixed number of slices a batch is split into, each with
// its own gradient accumulator; the slices are summed in shard order, so a
// run is bit-for-bit the same for any number of worker goroutines.
const hypShards = 8

// Config configures a Trainer. The zero value of a field
// means the default given in its comment (the paper's settings).
type Config struct {
	Dim       int     // embedding dimension d >= 1 (required)
	Negatives int     // negatives per positive relation; 0 means 50
	BatchSize int     // positive relations per batch; 0 means 1000
	Optimizer string  // SGD or Adam; "" means Adam
	Protocol  string  // Directed or Undirected; "" means Directed
	LR        float64 // learning rate; 0 means DefaultLR(Dim, Optimizer)
	Eps       float64 // added to the diagonal of every scale L L^T; 0 means 0.01
	Seed      uint64  // seeds initialisation, shuffling and negatives
	// Workers is the number of goroutines; <= 0 means GOMAXPROCS. Results
	// do not depend on it. A training batch is split into 8 fixed shards,
	// so training uses at most 8; evaluation uses all of them.
	Workers int
	// InitScale is the standard deviation of the initial mean and factor
	// entries; 0 means 0.1.
	InitScale float64
	// Epochs is where Run stops (Step stops there too); 0 means 50.
	Epochs int
	// EvalEvery evaluates the reconstruction every EvalEvery epochs during
	// Step and Run (always after the last one); 0 means every epoch, < 0
	// only after the last.
	EvalEvery int
	// EvalRows, when > 0, makes the scheduled evaluations rank only the
	// query rows of about EvalRows items, evenly spaced over the item
	// indices (items 0, k, 2k, ... with k = EvalStride(n, EvalRows)):
	// each of those ranks is exact, all candidates counted, and the mean
	// rank and MAP over them estimate those over all rows at about
	// EvalRows / n of the cost (all 82,115 WordNet nouns take minutes per
	// evaluation at d = 10). 0 ranks every row. Eval.Rows says how many
	// rows were ranked.
	EvalRows int
	// NoEval turns the scheduled evaluations off (Evaluate still works),
	// for timing the training alone.
	NoEval bool
	// NoSelfPairs disables the symmetrisation of the paper (each noun is
	// also its own hypernym: (u, u) is added to the training relations,
	// under both protocols). Under Undirected it gives the authors' code
	// as published, whose sampler may draw u as its own negative: with
	// one table that asks for [u:v] > [u:u], which Cauchy-Schwarz forbids
	// for one of two related items, and trains badly (docs/hypernymy.md,
	// "Two protocols").
	NoSelfPairs bool
	// Resident, when not nil, runs the whole training step on an
	// accelerator that holds the parameters and optimiser moments for the
	// run (the GL backend: gpucompute.Backend); per batch only the
	// sampled pair indices go to it, and the batches' loss sums come back
	// at the end of each epoch. The parameters are read back after every
	// epoch (and when an epoch stops early), so evaluations and snapshots
	// see them. An accelerator holds one run at a time: a Trainer's first
	// batch starts its run there, replacing any other. nil: the CPU
	// kernels.
	Resident Resident
}

// Resident runs hypernymy training steps on an accelerator that keeps
// the parameters (n*d means, then n*d*d factors L, row-major, as the
// Trainer's) and the optimiser moments between batches.
// gpucompute.Backend implements it on the GPU (docs/gpu.md).
type Resident interface {
	// StartResident uploads the parameters of n items in dimension d and
	// zeroes the moments (Adam when adam, else SGD); the scale of item i
	// is L_i L_i^T + eps I.
	StartResident(n, d int, eps float64, adam bool, params []float64) error
	// ResidentStep queues one batch: its softmax loss and the optimiser
	// step with its gradient. pairs holds (u, v) per pair; the pairs of
	// positive g are starts[g] .. starts[g+1]-1, the positive first.
	// Slot 2k is pair k's gradient with respect to u, slot 2k+1 that with
	// respect to v; items lists the touched items and
	// slots[offs[t]:offs[t+1]] the slots of items[t], in the order in
	// which they are summed. step is the SGD learning rate, or Adam's
	// learning rate times its bias correction (emds.Adam). From a batch
	// whose loss sum is not finite on, no step is taken until
	// ResidentLosses.
	ResidentStep(pairs, starts, items, offs, slots []int32, step float64) error
	// ResidentLosses appends the loss sums of the batches queued since
	// the last call to dst, in order, and clears the queue.
	ResidentLosses(dst []float64) ([]float64, error)
	// ReadResident copies the current parameters into params.
	ReadResident(params []float64) error
}

// EvalStride returns the spacing k of the items whose rows a sampled
// evaluation of n items ranks for Config.EvalRows = rows: the smallest k
// with ceil(n / k) <= rows, so that at most rows items are chosen; 1 (every
// row) when rows <= 0 or rows >= n.
func EvalStride(n, rows int) int {
	if rows <= 0 || rows >= n {
		return 1
	}
	return (n + rows - 1) / rows
}

// DefaultLR is the learning rate used when Config.LR is 0: for SGD the
// paper's 0.02 for d <= 4 and 0.01 above (the paper states 0.02 for
// d = 3, 4 and 0.01 for higher dimensions); for Adam 0.03 (measured on
// the mammal closure, docs/hypernymy.md: 50 epochs, MAP at 0.01 / 0.03:
// 0.910 / 0.976 at d = 2, 0.978 / 0.997 at d = 3, 0.9972 / 0.9991 at
// d = 5; after 10 epochs at d = 10, 0.995 / 0.9978).
func DefaultLR(d int, optimizer string) float64 {
	if optimizer == Adam {
		return 0.03
	}
	if d <= 4 {
		return 0.02
	}
	return 0.01
}

// withDefaults returns c with its zero fields replaced by the defaults, or
// an error naming the first invalid field.
func (c Config) withDefaults() (Config, error) {
	if c.Dim < 1 || c.Dim > 64 {
		return c, fmt.Errorf("hypernymy: dimension %d out of range 1..64", c.Dim)
	}
	if c.Negatives == 0 {
		c.Negatives = 50
	}
	if c.Negatives < 0 {
		return c, fmt.Errorf("hypernymy: negatives %d < 0", c.Negatives)
	}
	if c.BatchSize == 0 {
		c.BatchSize = 1000
	}
	if c.BatchSize < 0 {
		return c, fmt.Errorf("hypernymy: batch size %d < 0", c.BatchSize)
	}
	if c.Optimizer == "" {
		c.Optimizer = Adam
	}
	if c.Protocol == "" {
		c.Protocol = Directed
	}
	if c.Protocol != Directed && c.Protocol != Undirected {
		return c, fmt.Errorf("hypernymy: unknown protocol %q (want directed or undirected)", c.Protocol)
	}
	if c.Optimizer != SGD && c.Optimizer != Adam {
		return c, fmt.Errorf("hypernymy: unknown optimizer %q (want sgd or adam)", c.Optimizer)
	}
	if c.LR == 0 {
		c.LR = DefaultLR(c.Dim, c.Optimizer)
	}
	if !(c.LR > 0) || math.IsInf(c.LR, 0) {
		return c, fmt.Errorf("hypernymy: learning rate %v must be a positive number", c.LR)
	}
	if c.Eps == 0 {
		c.Eps = 0.01
	}
	if !(c.Eps > 0) || math.IsInf(c.Eps, 0) {
		return c, fmt.Errorf("hypernymy: eps %v must be a positive number", c.Eps)
	}
	if c.InitScale == 0 {
		c.InitScale = 0.1
	}
	if !(c.InitScale > 0) || math.IsInf(c.InitScale, 0) {
		return c, fmt.Errorf("hypernymy: init scale %v must be a positive number", c.InitScale)
	}
	if c.Workers <= 0 {
		c.Workers = runtime.GOMAXPROCS(0)
	}
	if c.Epochs == 0 {
		c.Epochs = 50
	}
	if c.Epochs < 0 {
		return c, fmt.Errorf("hypernymy: epochs %d < 0", c.Epochs)
	}
	if c.EvalEvery == 0 {
		c.EvalEvery = 1
	}
	if c.EvalRows < 0 {
		return c, fmt.Errorf("hypernymy: evaluation rows %d < 0", c.EvalRows)
	}
	return c, nil
}
