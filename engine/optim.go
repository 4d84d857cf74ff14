package engine

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

// updater is a first-order update rule on a flat parameter vector. Its
// state can be copied so that the optimiser can roll back.
type updater struct {
	kind string
	t    int       // steps taken (Adam bias correction)
	m, v []float64 // Adam moments; Adagrad uses v as the sum of squares
}

func newUpdater(kind string, size int) (*updater, error) {
	u := &updater{kind: kind}
	switch kind {
	case OptGD:
	case OptAdam:
		u.m = make([]float64, size)
		u.v = make([]float64, size)
	case OptAdagrad:
		u.v = make([]float64, size)
	default:
		return nil, fmt.Errorf("engine: unknown optimizer %q (want adam, gd or adagrad)", kind)
	}
	return u, nil
}

// reset forgets all accumulated state.
func (u *updater) reset() {
	u.t = 0
	clear(u.m)
	clear(u.v)
}

// copyFrom makes u an exact copy of v (same kind and size).
func (u *updater) copyFrom(v *updater) {
	u.kind, u.t = v.kind, v.t
	u.m = append(u.m[:0], v.m...)
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
		const b1, b2, e = 0.9, 0.999, 1e-12
		u.t++
		c1 := 1 - math.Pow(b1, float64(u.t))
		c2 := 1 - math.Pow(b2, float64(u.t))
		a := lr * math.Sqrt(c2) / c1
		m, v := u.m[:len(x)], u.v[:len(x)]
		g = g[:len(x)]
		for k := range x {
			m[k] = b1*m[k] + (1-b1)*g[k]
			v[k] = b2*v[k] + (1-b2)*g[k]*g[k]
			x[k] -= a * m[k] / (math.Sqrt(v[k]) + e)
		}
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
