package hypernymy

// Plain-loop references of the training kernels of train_amd64.s (also
// the fallbacks where they are not built; hypGemm's reference, which no
// build needs, is in train_ref_test.go).

// Flags of hypGemm.
const (
	hypGemmUpper = 1 // p starts at r (a upper triangular)
	hypGemmLower = 2 // p ends at r (a lower triangular)
	hypGemmAcc   = 4 // add to c instead of overwriting it
)
