package engine

import "fmt"

// Family is the kind of elliptical distribution: all members of a family
// share the constant Tau that turns a scale matrix into a covariance
// (covariance = Tau * scale). W2 is defined between measures of one family.
type Family struct {
	Name string  // "gaussian", "uniform" or "custom"
	Tau  float64 // covariance = Tau * scale; > 0
}

// Gaussian is the normal family: scale = covariance, tau = 1.
func Gaussian() Family { return Family{Name: "gaussian", Tau: 1} }

// Uniform is the family of uniform measures on solid ellipsoids
// {c + C^{1/2} x : |x| <= 1} in R^d, whose covariance is C/(d+2).
func Uniform(d int) Family { return Family{Name: "uniform", Tau: 1 / float64(d+2)} }

// CustomFamily is any other elliptical family, given by its tau directly
// (larger tau = heavier tails).
func CustomFamily(tau float64) Family { return Family{Name: "custom", Tau: tau} }

// ParseFamily returns the family called name in dimension d; tau is used
// only for "custom".
func ParseFamily(name string, d int, tau float64) (Family, error) {
	switch name {
	case "gaussian":
		return Gaussian(), nil
	case "uniform":
		return Uniform(d), nil
	case "custom":
		if !(tau > 0) || tau > 1e300 {
			return Family{}, fmt.Errorf("custom family needs tau > 0, got %v", tau)
		}
		return CustomFamily(tau), nil
	}
	return Family{}, fmt.Errorf("unknown family %q (want uniform, gaussian or custom)", name)
}

// Measure is one elliptical measure mu(c, C): Mean c in R^d and scale
// C = L L^T + Eps I, with the factor L stored as a d x K row-major matrix.
// K = 0 (nil Factor) with Eps = 0 is a Dirac at the mean.
type Measure struct {
	Mean   []float64 // length d
	Factor []float64 // d*K, row-major; may be nil
	K      int       // columns of the factor (rank bound of L L^T)
	Eps    float64   // regularisation added to the diagonal of L L^T
}

// Scale returns the d x d scale matrix C = L L^T + Eps I (row-major).
func (m Measure) Scale() []float64 {
	d := len(m.Mean)
	c := make([]float64, d*d)
	for i := 0; i < d; i++ {
		for j := 0; j <= i; j++ {
			var s float64
			for k := 0; k < m.K; k++ {
				s += m.Factor[i*m.K+k] * m.Factor[j*m.K+k]
			}
			c[i*d+j] = s
			c[j*d+i] = s
		}
		c[i*d+i] += m.Eps
	}
	return c
}

// Embedding is a set of n elliptical measures of one family in R^Dim with
// labels: the unit Burescope loads, fits, draws and saves. Means and
// scales are stored flat so that large embeddings stay compact.
type Embedding struct {
	Family Family
	Dim    int
	Labels []string // n labels, unique
	// Classes are n class names (the colour groups of a fitted dataset,
	// kept by embedding files' optional "classes"), or nil.
	Classes []string
	Means   []float64 // n*Dim
	Scales  []float64 // n*Dim*Dim, symmetric PSD blocks (the scale C, not tau*C)
}

// Len returns the number of measures n.
func (e *Embedding) Len() int { return len(e.Labels) }

// Mean returns the mean of measure i (a view, not a copy).
func (e *Embedding) Mean(i int) []float64 { return e.Means[i*e.Dim : (i+1)*e.Dim] }

// Scale returns the scale matrix of measure i (a view, not a copy).
func (e *Embedding) Scale(i int) []float64 {
	dd := e.Dim * e.Dim
	return e.Scales[i*dd : (i+1)*dd]
}
