package emds

import (
	"fmt"
	"math"
)

// Optimiser names accepted in Options.Optimizer.
const (
	OptAdam    = "adam"
	OptGD      = "gd"
	OptAdagrad = "adagrad"
)

// defaultLR is the learning rate of each optimiser when Options.LR is 0.
// The objective the optimisers see is normalised (internal units with RMS
// distance 1, stress divided by the mean per-point weight sum), so one
// default fits data of any scale and size; docs/mds.md has the
// measurements behind these values.
func defaultLR(name string) float64 {
	switch name {
	case OptGD:
		return 1
	case OptAdagrad:
		return 0.1
	}
	return 0.03
}

// Adam is the Adam update rule (Kingma & Ba 2015) on a flat parameter
// vector: beta1 = 0.9, beta2 = 0.999 and epsilon AdamEps, with the bias
// corrections folded into the step size as in Algorithm 1's final
// remark (x -= lr sqrt(1-beta2^t)/(1-beta1^t) m / (sqrt(v) + eps)). It is
// the one Adam of Burescope: the MDS optimiser and the hypernymy trainer
// both use it. Tick starts a step; Update applies it to any sub-ranges of
// the vector (so that a caller may update disjoint ranges in parallel);
// Step does both.
type Adam struct {
	t    int       // steps started
	m, v []float64 // first and second moments
	a    float64   // folded bias correction of the current step
}

// AdamEps is Adam's epsilon.
const AdamEps = 1e-12

// NewAdam returns an Adam rule with zero moments for size parameters.
func NewAdam(size int) *Adam {
	return &Adam{m: make([]float64, size), v: make([]float64, size)}
}

// Steps returns the number of steps started.
func (a *Adam) Steps() int { return a.t }

// Tick starts a new step (the bias corrections of step t+1).
func (a *Adam) Tick() {
	const b1, b2 = 0.9, 0.999
	a.t++
	a.a = math.Sqrt(1-math.Pow(b2, float64(a.t))) / (1 - math.Pow(b1, float64(a.t)))
}

// Update applies the current step to x = params[off:off+len(x)] with the
// gradient g (same length) and learning rate lr.
func (a *Adam) Update(x, g []float64, off int, lr float64) {
	const b1, b2 = 0.9, 0.999
	m, v := a.m[off:off+len(x)], a.v[off:off+len(x)]
	g = g[:len(x)]
	c := [6]float64{b1, 1 - b1, b2, 1 - b2, lr * a.a, AdamEps}
	adamUpdate(x, g, m, v, &c)
}

// Moments returns the first and second moments of params[off:off+n]:
// views of the state (writing to them changes it), for a caller that
// wants to prefetch them.
func (a *Adam) Moments(off, n int) (m, v []float64) {
	return a.m[off : off+n], a.v[off : off+n]
}

// adamUpdateRef is the plain loop of Update, c = b1, 1-b1, b2, 1-b2, the
// step lr a.a and epsilon (optim_amd64.s does the same operations four
// elements at a time).
func adamUpdateRef(x, g, m, v []float64, c *[6]float64) {
	b1, c1, b2, c2, s, eps := c[0], c[1], c[2], c[3], c[4], c[5]
	g, m, v = g[:len(x)], m[:len(x)], v[:len(x)]
	for k := range x {
		m[k] = b1*m[k] + c1*g[k]
		v[k] = b2*v[k] + c2*g[k]*g[k]
		x[k] -= s * m[k] / (math.Sqrt(v[k]) + eps)
	}
}

// Step is Tick followed by Update on the whole vector.
func (a *Adam) Step(x, g []float64, lr float64) {
	a.Tick()
	a.Update(x, g, 0, lr)
}

// reset forgets all accumulated state.
func (a *Adam) reset() {
	a.t = 0
	clear(a.m)
	clear(a.v)
}

// copyFrom makes a an exact copy of b (same size).
func (a *Adam) copyFrom(b *Adam) {
	a.t, a.a = b.t, b.a
	a.m = append(a.m[:0], b.m...)
	a.v = append(a.v[:0], b.v...)
}

// updater is a first-order update rule on a flat parameter vector. Its
// state can be copied so that the optimiser can roll back.
type updater struct {
	kind string
	adam *Adam     // OptAdam
	v    []float64 // OptAdagrad: the sum of squares
}

func newUpdater(kind string, size int) (*updater, error) {
	u := &updater{kind: kind}
	switch kind {
	case OptGD:
	case OptAdam:
		u.adam = NewAdam(size)
	case OptAdagrad:
		u.v = make([]float64, size)
	default:
		return nil, fmt.Errorf("engine: unknown optimizer %q (want adam, gd or adagrad)", kind)
	}
	return u, nil
}

// reset forgets all accumulated state.
func (u *updater) reset() {
	if u.adam != nil {
		u.adam.reset()
	}
	clear(u.v)
}

// copyFrom makes u an exact copy of v (same kind and size).
func (u *updater) copyFrom(v *updater) {
	u.kind = v.kind
	if v.adam != nil {
		if u.adam == nil {
			u.adam = &Adam{}
		}
		u.adam.copyFrom(v.adam)
	}
	u.v = append(u.v[:0], v.v...)
}

// step moves x against the gradient g with learning rate lr.
func (u *updater) step(x, g []float64, lr float64) {
	switch u.kind {
	case OptGD:
		for k := range x {
			x[k] -= lr * g[k]
		}
	case OptAdam:
		u.adam.Step(x, g, lr)
	case OptAdagrad:
		const e = 1e-12
		v := u.v[:len(x)]
		g = g[:len(x)]
		for k := range x {
			v[k] += g[k] * g[k]
			x[k] -= lr * g[k] / (math.Sqrt(v[k]) + e)
		}
	}
}
