package fit

import (
	"fmt"

	"burescope/datasets"
	"burescope/engine/hypernymy"
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
