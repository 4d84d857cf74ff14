package render

import (
	"math"
	"math/rand/v2"
	"testing"

	"gonum.org/v1/gonum/mat"
)

// TestProjectionMatrixIsPCPT checks Projection.Matrix against P C P^T
// computed with gonum, and geometrically: the projected ellipse's support
// function in direction u, sqrt(u^T M u), equals the largest u-component
// of the projections of many points sampled on the 3D ellipsoid's surface.
func TestProjectionMatrixIsPCPT(t *testing.T) {
	sc := fixture3D()
	p := IdentityProjection(3)
	p.Rotate(0.7, -0.4)
	P := mat.NewDense(2, 3, p.R[:6])
	r := rand.New(rand.NewPCG(1, 2))
	for i := 0; i < sc.Len(); i++ {
		c := sc.Scales[9*i : 9*i+9]
		var pc, want mat.Dense
		pc.Mul(P, mat.NewDense(3, 3, c))
		want.Mul(&pc, P.T())
		got := p.Matrix(c)
		for k, g := range []float64{got.A, got.B, got.B, got.C} {
			if w := want.At(k/2, k%2); !(math.Abs(g-w) <= 1e-12) {
				t.Errorf("item %d entry %d: %v, gonum P C P^T %v", i, k, g, w)
			}
		}
		// Support function check with surface samples C^{1/2} x, |x| = 1.
		var e mat.EigenSym
		e.Factorize(mat.NewSymDense(3, c), true)
		vals := e.Values(nil)
		var u mat.Dense
		e.VectorsTo(&u)
		root := mat.NewDense(3, 3, nil)
		for a := 0; a < 3; a++ {
			for b := 0; b < 3; b++ {
				var s float64
				for k := 0; k < 3; k++ {
					s += u.At(a, k) * math.Sqrt(vals[k]) * u.At(b, k)
				}
				root.Set(a, b, s)
			}
		}
		for _, th := range []float64{0, 0.5, 1.2, 2.5} {
			dx, dy := math.Cos(th), math.Sin(th)
			best := 0.0
			for s := 0; s < 20000; s++ {
				x := []float64{r.NormFloat64(), r.NormFloat64(), r.NormFloat64()}
				n := norm(x)
				var v mat.VecDense
				v.MulVec(root, mat.NewVecDense(3, []float64{x[0] / n, x[1] / n, x[2] / n}))
				px, py, _ := p.Point([]float64{v.AtVec(0), v.AtVec(1), v.AtVec(2)})
				best = math.Max(best, px*dx+py*dy)
			}
			h := math.Sqrt(got.A*dx*dx + 2*got.B*dx*dy + got.C*dy*dy)
			if best > h*(1+1e-9) || best < h*0.99 {
				t.Errorf("item %d direction %v: sampled support %v, sqrt(u^T P C P^T u) = %v", i, th, best, h)
			}
		}
	}
}

func TestRotateStaysOrthonormal(t *testing.T) {
	p := IdentityProjection(3)
	for k := 0; k < 1000; k++ {
		p.Rotate(0.013*float64(k%7), -0.011*float64(k%5))
	}
	R := mat.NewDense(3, 3, p.R)
	var rrt mat.Dense
	rrt.Mul(R, R.T())
	if !mat.EqualApprox(&rrt, mat.NewDiagDense(3, []float64{1, 1, 1}), 1e-12) {
		t.Errorf("R R^T = %v", mat.Formatted(&rrt))
	}
	if d := mat.Det(R); !(math.Abs(d-1) <= 1e-12) {
		t.Errorf("det R = %v, want 1", d)
	}
	// A pure drag of dx about the vertical axis turns x toward -z: rotating
	// the identity by dx gives first row (cos dx, 0, sin dx).
	q := IdentityProjection(3)
	q.Rotate(0.3, 0)
	if !(math.Abs(q.R[0]-math.Cos(0.3)) <= 1e-15) || !(math.Abs(q.R[2]-math.Sin(0.3)) <= 1e-15) || q.R[4] != 1 {
		t.Errorf("Rotate(0.3, 0) = %v", q.R)
	}
}

func TestPCAProjection(t *testing.T) {
	// Points spread mostly along v1, less along v2, little elsewhere in R^5:
	// the PCA plane must be span(v1, v2) in that order.
	d := 5
	v1 := []float64{1, 2, 0, -1, 0.5}
	v2 := []float64{2, -1, 1, 0, 0}
	n1, n2 := norm(v1), norm(v2)
	r := rand.New(rand.NewPCG(3, 4))
	var means []float64
	for i := 0; i < 400; i++ {
		a, b := 10*r.NormFloat64(), 3*r.NormFloat64()
		for k := 0; k < d; k++ {
			means = append(means, 7+a*v1[k]/n1+b*v2[k]/n2+0.01*r.NormFloat64())
		}
	}
	p, err := PCAProjection(means, d)
	if err != nil {
		t.Fatal(err)
	}
	dot := func(x, y []float64) float64 {
		var s float64
		for k := range x {
			s += x[k] * y[k]
		}
		return s
	}
	if c := math.Abs(dot(p.R[:d], v1)) / n1; c < 0.999 {
		t.Errorf("first axis %v has |cos| %v with v1", p.R[:d], c)
	}
	// v1 and v2 are orthogonal by construction (1*2 + 2*-1 = 0).
	if c := math.Abs(dot(p.R[d:2*d], v2)) / n2; c < 0.999 {
		t.Errorf("second axis %v has |cos| %v with v2", p.R[d:], c)
	}
	if _, err := PlaneProjection([]float64{1, 0, 0}, []float64{2, 0, 0}); err == nil {
		t.Error("parallel plane vectors accepted")
	}
}

func TestAxesProjection(t *testing.T) {
	// diag(1, 9, 4, 0.5): principal axes e2 then e3.
	c := []float64{1, 0, 0, 0, 0, 9, 0, 0, 0, 0, 4, 0, 0, 0, 0, 0.5}
	p, err := AxesProjection(c, 4)
	if err != nil {
		t.Fatal(err)
	}
	if !(math.Abs(math.Abs(p.R[1])-1) <= 1e-12) || !(math.Abs(math.Abs(p.R[4+2])-1) <= 1e-12) {
		t.Errorf("axes %v, want e2 and e3", p.R)
	}
	m := p.Matrix(c)
	if !(math.Abs(m.A-9) <= 1e-12) || !(math.Abs(m.C-4) <= 1e-12) || !(math.Abs(m.B) <= 1e-12) {
		t.Errorf("projected scale %v, want diag(9, 4)", m)
	}
}
