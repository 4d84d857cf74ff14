package words

import (
	"errors"
	"fmt"
	"math"
	"math/rand/v2"

	"burescope/engine"
)

// Eps is the multiple of the identity added to every covariance,
// L L^T + Eps I, as in the paper and the authors' code.
const Eps = 0.01

// MaxDim is the largest embedding dimension NewModel accepts.
const MaxDim = 128

// MaxVocabulary bounds the vocabulary size of a model read from a file.
const MaxVocabulary = 1 << 24

// Model is a trained (or training) skipgram embedding: for every word an
// input measure (Means, Factors) and a context measure (CMeans, CFactors).
// Factors are n x Dim x Rank row-major blocks (covariance L L^T + Eps I),
// or with Diagonal n x Dim diagonals l (covariance diag(l^2) + Eps I).
// The Acc* slices are the Adagrad accumulators (same shapes) and Epochs
// the number of completed epochs, so that training can resume.
type Model struct {
	Words    []string // vocabulary, most frequent first
	Counts   []int64  // corpus counts of Words
	Dim      int
	Rank     int // columns of the factors (Dim for Diagonal)
	Diagonal bool

	Means, Factors, CMeans, CFactors             []float64
	AccMeans, AccFactors, AccCMeans, AccCFactors []float64
	Epochs                                       int
}

// Set selects the input or the context measures of a Model.
type Set int

// The two sets of measures of a skipgram model.
const (
	Input Set = iota
	Context
)

// ParseSet reads "input" or "context".
func ParseSet(s string) (Set, error) {
	switch s {
	case "input":
		return Input, nil
	case "context":
		return Context, nil
	}
	return 0, fmt.Errorf("unknown set %q (want input or context)", s)
}

// factorLen returns the number of factor values of one word.
func (m *Model) factorLen() int {
	if m.Diagonal {
		return m.Dim
	}
	return m.Dim * m.Rank
}

// NewModel returns an untrained model for the vocabulary words (with
// counts) initialised as the authors' code does: means uniform in
// +-sqrt(3/d) and factors sqrtm(W/(2d)) with W a Wishart(d, 2d) sample
// (for rank < d: a d x rank Gaussian divided by sqrt(2d); diagonal: the
// square roots of the diagonal of W/(2d)). The seed fixes every draw.
func NewModel(words []string, counts []int64, dim, rank int, diagonal bool, seed uint64) (*Model, error) {
	if len(words) == 0 || len(words) != len(counts) {
		return nil, fmt.Errorf("vocabulary of %d words with %d counts", len(words), len(counts))
	}
	if dim < 1 || dim > MaxDim {
		return nil, fmt.Errorf("dimension %d out of range", dim)
	}
	if diagonal {
		rank = dim
	}
	if rank < 1 || rank > dim {
		return nil, fmt.Errorf("rank %d, want 1..%d", rank, dim)
	}
	n := len(words)
	m := &Model{Words: words, Counts: counts, Dim: dim, Rank: rank, Diagonal: diagonal}
	fl := m.factorLen()
	m.Means, m.CMeans = make([]float64, n*dim), make([]float64, n*dim)
	m.Factors, m.CFactors = make([]float64, n*fl), make([]float64, n*fl)
	m.AccMeans, m.AccCMeans = make([]float64, n*dim), make([]float64, n*dim)
	m.AccFactors, m.AccCFactors = make([]float64, n*fl), make([]float64, n*fl)
	rng := rand.New(rand.NewPCG(seed, 0x9e3779b97f4a7c15))
	scale := math.Sqrt(3 / float64(dim))
	for _, means := range [][]float64{m.Means, m.CMeans} {
		for i := range means {
			means[i] = scale * (2*rng.Float64() - 1)
		}
	}
	dof := 2 * dim
	g := make([]float64, dim*dof)
	for _, fac := range [][]float64{m.Factors, m.CFactors} {
		for w := 0; w < n; w++ {
			out := fac[w*fl : (w+1)*fl]
			switch {
			case diagonal:
				for i := 0; i < dim; i++ {
					var s float64
					for j := 0; j < dof; j++ {
						x := rng.NormFloat64()
						s += x * x
					}
					out[i] = math.Sqrt(s / float64(dof))
				}
			case rank < dim:
				for i := range out {
					out[i] = rng.NormFloat64() / math.Sqrt(float64(dof))
				}
			default:
				for i := range g {
					g[i] = rng.NormFloat64()
				}
				wish := engine.MatMul(g, engine.Transpose(g, dim, dof), dim, dof, dim)
				for i := range wish {
					wish[i] /= float64(dof)
				}
				copy(out, engine.SqrtPSD(wish, dim))
			}
		}
	}
	return m, nil
}

// Check validates the shapes of a model (one built by hand or read from
// a file) and that every parameter is finite.
func (m *Model) Check() error {
	n := len(m.Words)
	if n == 0 || len(m.Counts) != n {
		return fmt.Errorf("vocabulary of %d words with %d counts", n, len(m.Counts))
	}
	if m.Dim < 1 || m.Rank < 1 || m.Rank > m.Dim {
		return fmt.Errorf("dimension %d, rank %d", m.Dim, m.Rank)
	}
	if m.Diagonal && m.Rank != m.Dim {
		return errors.New("a diagonal model has rank = dimension")
	}
	fl := m.factorLen()
	for _, c := range []struct {
		name string
		v    []float64
		per  int
	}{{"means", m.Means, m.Dim}, {"factors", m.Factors, fl}, {"context means", m.CMeans, m.Dim}, {"context factors", m.CFactors, fl},
		{"Adagrad means", m.AccMeans, m.Dim}, {"Adagrad factors", m.AccFactors, fl}, {"Adagrad context means", m.AccCMeans, m.Dim}, {"Adagrad context factors", m.AccCFactors, fl}} {
		if len(c.v) != n*c.per {
			return fmt.Errorf("%s: %d values, want %d", c.name, len(c.v), n*c.per)
		}
		for i, v := range c.v {
			if math.IsNaN(v) || math.IsInf(v, 0) {
				return fmt.Errorf("%s: word %d (%s): value %v is not finite", c.name, i/c.per, m.Words[i/c.per], v)
			}
		}
	}
	return nil
}

// params returns the means and factors of a set.
func (m *Model) params(s Set) (means, factors []float64) {
	if s == Context {
		return m.CMeans, m.CFactors
	}
	return m.Means, m.Factors
}

// Covariance returns the covariance L L^T + Eps I of word i in set s, a
// new Dim x Dim row-major matrix.
func (m *Model) Covariance(s Set, i int) []float64 {
	_, fac := m.params(s)
	d := m.Dim
	if m.Diagonal {
		c := make([]float64, d*d)
		l := fac[i*d : (i+1)*d]
		for j := 0; j < d; j++ {
			c[j*d+j] = l[j]*l[j] + Eps
		}
		return c
	}
	fl := d * m.Rank
	return engine.FactorProduct(fac[i*fl:(i+1)*fl], d, m.Rank, Eps)
}

// Variances returns the diagonal of the covariance of word i in set s.
func (m *Model) Variances(s Set, i int) []float64 {
	_, fac := m.params(s)
	d := m.Dim
	v := make([]float64, d)
	fl := m.factorLen()
	l := fac[i*fl : (i+1)*fl]
	for j := 0; j < d; j++ {
		if m.Diagonal {
			v[j] = l[j]*l[j] + Eps
			continue
		}
		var s float64
		for t := 0; t < m.Rank; t++ {
			s += l[j*m.Rank+t] * l[j*m.Rank+t]
		}
		v[j] = s + Eps
	}
	return v
}

// Embedding returns set s as a Gaussian engine.Embedding labelled by the
// words (the form the rest of Burescope explores and evaluates).
func (m *Model) Embedding(s Set) *engine.Embedding {
	n, d := len(m.Words), m.Dim
	means, _ := m.params(s)
	e := &engine.Embedding{Family: engine.Gaussian(), Dim: d, Labels: append([]string(nil), m.Words...),
		Means: append([]float64(nil), means...), Scales: make([]float64, n*d*d)}
	for i := 0; i < n; i++ {
		copy(e.Scales[i*d*d:(i+1)*d*d], m.Covariance(s, i))
	}
	return e
}
