package pairkernel

// GemmFlags select the variant of Gemm.
type GemmFlags int

// The flags of Gemm.
const (
	GemmUpper GemmFlags = 1 // p starts at r (a upper triangular)
	GemmLower GemmFlags = 2 // p ends at r (a lower triangular)
	GemmAcc   GemmFlags = 4 // add to c instead of overwriting it
)
