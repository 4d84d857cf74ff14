package fit

import (
	"fmt"

	"burescope/datasets"
	"burescope/engine/hypernymy"
	"burescope/gpucompute"
)

// RelationTrainingBytes is the memory plan of a hypernymy training on
// pairs relations of n items beyond the loaded relations: the trainer's
// graphs and orders (input, symmetric and undirected adjacency, training
// pairs and their order: about 64 bytes a relation, doubled for the
// evaluation's and the temporaries' share), its parameters with the
// optimiser's two moments and a gradient (n (d + d^2) float64 four times)
// and the negative samples (batch x negatives int32, twice).
func RelationTrainingBytes(n, pairs int, cfg hypernymy.Config) float64 {
	d := float64(cfg.Dim)
	return 128*float64(pairs) + 4*8*float64(n)*(d+d*d) + 2*4*float64(cfg.BatchSize)*float64(cfg.Negatives)
}

// CheckRelationTraining compares RelationTrainingBytes with the memory
// limit (datasets.CheckMemory) before a trainer is built, for the app and
// the command line alike; the error names the input.
func CheckRelationTraining(name string, n, pairs int, cfg hypernymy.Config) error {
	return datasets.CheckMemory(fmt.Sprintf("%s: training on %d relations of %d items in dimension %d", name, pairs, n, cfg.Dim),
		RelationTrainingBytes(n, pairs, cfg))
}

// ResidentBatchBytes is what a batch of relation training on the GL backend
// (the resident trainer, gpucompute.ResidentStep) holds besides the CPU
// trainer's: per (item, candidate) pair its two indices, its two slot
// indices and, for the item lists, at most two more, on the host; and on
// the GPU those, the two gradient slots (d + d*d values each), the score
// and the weight (gpucompute.ResidentBytes); 0 on the CPU. The resident
// parameters and moments depend on the number of items and are planned
// after the input is read (ResidentBytes).
func ResidentBatchBytes(backend string, batch, negatives, dim int) float64 {
	if backend == "cpu" {
		return 0
	}
	pairs := batch * (1 + negatives)
	host := 4 * 6 * float64(pairs)
	return host + gpucompute.ResidentBytes(0, dim, false, batch, pairs, glElem(backend))
}

// ResidentBytes is what the resident GL trainer holds for n items in
// dimension dim besides a batch's buffers: the parameters, with Adam its
// two moments, in GPU buffers (gpucompute.ResidentBytes), and on the host
// the staging copies of the parameters for the upload and the read-backs
// and one index per item.
func ResidentBytes(backend string, n, dim int, adam bool) float64 {
	if backend == "cpu" {
		return 0
	}
	per := float64(n) * float64(dim+dim*dim)
	return gpucompute.ResidentBytes(n, dim, adam, 0, 0, glElem(backend)) + 2*float64(glElem(backend))*per + 4*float64(n)
}

// glElem is the size of one value in the GL buffers of the backend
// choice name: 8 for gl64, 4 for gl and auto (float32 buffers).
func glElem(name string) int {
	if name == "gl64" {
		return 8
	}
	return 4
}
