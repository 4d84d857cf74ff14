package engine

import (
	"math"
	"math/rand/v2"
	"strings"
	"testing"

	"gonum.org/v1/gonum/mat"
)

// checkOrthonormal fails unless the rows of p are orthonormal.
func checkOrthonormal(t *testing.T, name string, p Plane) {
	t.Helper()
	for _, c := range []struct {
		r, s int
		want float64
	}{{0, 0, 1}, {1, 1, 1}, {0, 1, 0}} {
		if got := Dot(p.Axis(c.r), p.Axis(c.s)); !(math.Abs(got-c.want) <= 1e-12) {
			t.Errorf("%s: <row %d, row %d> = %v, want %v", name, c.r, c.s, got, c.want)
		}
	}
}

// inPlane returns |v - P^T P v| / |v|: 0 when v lies in the plane.
func inPlane(p Plane, v []float64) float64 {
	r := append([]float64(nil), v...)
	for a := 0; a < 2; a++ {
		c := Dot(p.Axis(a), v)
		for i := range r {
			r[i] -= c * p.Axis(a)[i]
		}
	}
	return math.Sqrt(Dot(r, r) / Dot(v, v))
}

func TestProjectAgainstGonum(t *testing.T) {
	rnd := rand.New(rand.NewPCG(11, 12))
	for _, d := range []int{2, 3, 5, 12} {
		e := randomEmbedding(rnd, 20, d, d, Uniform(d))
		u, v := make([]float64, d), make([]float64, d)
		for i := range u {
			u[i], v[i] = rnd.NormFloat64(), rnd.NormFloat64()
		}
		p, err := NewPlane(u, v)
		if err != nil {
			t.Fatal(err)
		}
		checkOrthonormal(t, "NewPlane", p)
		got, err := Project(e, p)
		if err != nil {
			t.Fatal(err)
		}
		wantFam := e.Family // uniform in d = 2 stays uniform (a rotation)
		if d != 2 {
			wantFam = CustomFamily(1 / float64(d+2)) // same tau, not uniform in the plane
		}
		if got.Dim != 2 || got.Len() != 20 || got.Family != wantFam || got.Labels[7] != e.Labels[7] {
			t.Fatalf("d=%d: projected embedding header %+v, want family %+v", d, got.Family, wantFam)
		}
		// Reference: P c and P C P^T with gonum's dense products.
		P := mat.NewDense(2, d, p.Rows)
		for i := 0; i < e.Len(); i++ {
			var pm mat.VecDense
			pm.MulVec(P, mat.NewVecDense(d, append([]float64(nil), e.Mean(i)...)))
			var pc, pcp mat.Dense
			pc.Mul(P, mat.NewDense(d, d, append([]float64(nil), e.Scale(i)...)))
			pcp.Mul(&pc, P.T())
			for a := 0; a < 2; a++ {
				if !(math.Abs(got.Mean(i)[a]-pm.AtVec(a)) <= 1e-12*(1+math.Abs(pm.AtVec(a)))) {
					t.Errorf("d=%d item %d: mean[%d] = %v, want %v", d, i, a, got.Mean(i)[a], pm.AtVec(a))
				}
				for b := 0; b < 2; b++ {
					if w := pcp.At(a, b); !(math.Abs(got.Scale(i)[2*a+b]-w) <= 1e-12*(1+math.Abs(w))) {
						t.Errorf("d=%d item %d: scale[%d,%d] = %v, want %v", d, i, a, b, got.Scale(i)[2*a+b], w)
					}
				}
			}
		}
		kept, err := VarianceKept(e, p)
		if err != nil {
			t.Fatal(err)
		}
		for i, k := range kept {
			want := Trace(got.Scale(i), 2) / Trace(e.Scale(i), d)
			if !(math.Abs(k-want) <= 1e-12) || k < 0 || k > 1+1e-12 {
				t.Errorf("d=%d item %d: variance kept %v, want %v in [0,1]", d, i, k, want)
			}
			if d == 2 && !(math.Abs(k-1) <= 1e-12) {
				t.Errorf("d=2: a rotation keeps all variance, got %v", k)
			}
		}
	}
}

func TestItemAxesPlaneKeepsTopTwoEigenvalues(t *testing.T) {
	rnd := rand.New(rand.NewPCG(5, 6))
	for _, tc := range []struct {
		d   int
		eig []float64 // eigenvalues of the item's scale, any order
	}{
		{3, []float64{1, 5, 2}},
		{5, []float64{0.1, 0.2, 7, 0.3, 3}},
		{12, []float64{9, 1, 1, 1, 1, 4, 0.5, 0.5, 0.1, 0, 0, 2}},
	} {
		d := tc.d
		e := randomEmbedding(rnd, 4, d, d, Gaussian())
		// Scale of item 2 = Q diag(eig) Q^T with a random rotation Q: the
		// known top two eigenvalues l1 >= l2 and their eigenvectors q1, q2
		// (columns of Q) are the reference.
		q := randOrth(rnd, d)
		c := e.Scale(2)
		for i := 0; i < d; i++ {
			for j := 0; j < d; j++ {
				var s float64
				for k := 0; k < d; k++ {
					s += q[i*d+k] * tc.eig[k] * q[j*d+k]
				}
				c[i*d+j] = s
			}
		}
		i1, i2 := 0, 1
		for k := range tc.eig {
			if tc.eig[k] > tc.eig[i1] {
				i1 = k
			}
		}
		if i2 == i1 {
			i2 = 0
		}
		for k := range tc.eig {
			if k != i1 && tc.eig[k] > tc.eig[i2] {
				i2 = k
			}
		}
		l1, l2 := tc.eig[i1], tc.eig[i2]
		var total float64
		for _, l := range tc.eig {
			total += l
		}
		p, err := ItemAxesPlane(e, 2)
		if err != nil {
			t.Fatal(err)
		}
		checkOrthonormal(t, "ItemAxesPlane", p)
		for _, k := range []int{i1, i2} {
			col := make([]float64, d)
			for i := range col {
				col[i] = q[i*d+k]
			}
			if r := inPlane(p, col); r > 1e-9 {
				t.Errorf("d=%d: eigenvector %d is %v outside the plane", d, k, r)
			}
		}
		pe, _ := Project(e, p)
		s := pe.Scale(2)
		// A 2 x 2 symmetric matrix with eigenvalues l1, l2 has trace
		// l1 + l2 and determinant l1 l2; here it is diag(l1, l2).
		if !(math.Abs(s[0]-l1) <= 1e-9) || !(math.Abs(s[3]-l2) <= 1e-9) || !(math.Abs(s[1]) <= 1e-9) {
			t.Errorf("d=%d: projected scale %v, want diag(%v, %v)", d, s, l1, l2)
		}
		kept, _ := VarianceKept(e, p)
		if want := (l1 + l2) / total; !(math.Abs(kept[2]-want) <= 1e-12) {
			t.Errorf("d=%d: variance kept %v, want (l1+l2)/tr = %v", d, kept[2], want)
		}
	}
}

func TestPCAPlaneRecoversPlaneOfMeans(t *testing.T) {
	rnd := rand.New(rand.NewPCG(8, 9))
	for _, d := range []int{3, 7, 12} {
		q := randOrth(rnd, d)
		v1, v2, off := make([]float64, d), make([]float64, d), make([]float64, d)
		for i := 0; i < d; i++ {
			v1[i], v2[i], off[i] = q[i*d], q[i*d+1], 5*q[i*d+2]
		}
		n := 200
		e := randomEmbedding(rnd, n, d, 2, Gaussian())
		var want [][]float64
		for i := 0; i < n; i++ {
			s, u := 3*rnd.NormFloat64(), rnd.NormFloat64()
			m := e.Mean(i)
			for j := range m {
				m[j] = off[j] + s*v1[j] + u*v2[j]
			}
			want = append(want, []float64{s, u})
		}
		p, err := PCAPlane(e)
		if err != nil {
			t.Fatal(err)
		}
		checkOrthonormal(t, "PCAPlane", p)
		for _, v := range [][]float64{v1, v2} {
			if r := inPlane(p, v); r > 1e-9 {
				t.Errorf("d=%d: generator %v outside the PCA plane (%v)", d, v, r)
			}
		}
		// Distances between means are kept exactly by the projection.
		pe, _ := Project(e, p)
		for i := 1; i < n; i++ {
			dw := math.Hypot(want[i][0]-want[0][0], want[i][1]-want[0][1])
			dg := math.Sqrt(SqDist(pe.Mean(i), pe.Mean(0)))
			if !(math.Abs(dw-dg) <= 1e-9*(1+dw)) {
				t.Errorf("d=%d: projected distance %v, want %v", d, dg, dw)
			}
		}
		// The first axis is the direction of largest spread (v1, variance 9).
		if c := math.Abs(Dot(p.Axis(0), v1)); c < 0.9 {
			t.Errorf("d=%d: first PCA axis |<e0, v1>| = %v, want near 1", d, c)
		}
	}
}

func TestDiffPlane(t *testing.T) {
	rnd := rand.New(rand.NewPCG(3, 4))
	d := 6
	e := randomEmbedding(rnd, 50, d, d, Gaussian())
	p, err := DiffPlane(e, 3, 9)
	if err != nil {
		t.Fatal(err)
	}
	checkOrthonormal(t, "DiffPlane", p)
	diff := make([]float64, d)
	for j := range diff {
		diff[j] = e.Mean(9)[j] - e.Mean(3)[j]
	}
	if c := Dot(p.Axis(0), diff) / math.Sqrt(Dot(diff, diff)); !(math.Abs(c-1) <= 1e-12) {
		t.Errorf("first axis not the unit mean difference: cos = %v", c)
	}
	// The second axis maximises the spread of the means orthogonal to the
	// difference: no unit vector w orthogonal to axis 0 does better.
	cov := MeansCovariance(e)
	quad := func(w []float64) float64 { return Dot(w, MatMul(cov, w, d, d, 1)) }
	best := quad(p.Axis(1))
	for trial := 0; trial < 200; trial++ {
		w := make([]float64, d)
		for i := range w {
			w[i] = rnd.NormFloat64()
		}
		pw, err := NewPlane(p.Axis(0), w)
		if err != nil {
			continue
		}
		if q := quad(pw.Axis(1)); q > best+1e-12 {
			t.Fatalf("second axis spread %v beaten by %v", best, q)
		}
	}
	// Means on a line through both items: the spread orthogonal to the
	// difference is 0, and the plane falls back to the items' scales.
	line := randomEmbedding(rnd, 5, 3, 3, Gaussian())
	for i := 0; i < 5; i++ {
		copy(line.Mean(i), []float64{float64(i), 2 * float64(i), 0})
	}
	if p, err := DiffPlane(line, 0, 4); err != nil {
		t.Errorf("collinear means: %v", err)
	} else {
		checkOrthonormal(t, "DiffPlane collinear", p)
	}
}

func TestPlaneErrors(t *testing.T) {
	e := randomEmbedding(rand.New(rand.NewPCG(1, 1)), 4, 3, 3, Gaussian())
	copy(e.Mean(1), e.Mean(0))
	one := &Embedding{Family: Gaussian(), Dim: 1, Labels: []string{"a"}, Means: []float64{1}, Scales: []float64{1}}
	for _, tc := range []struct {
		name string
		f    func() error
		want string
	}{
		{"zero axis", func() error { _, err := NewPlane([]float64{0, 0}, []float64{1, 0}); return err }, "zero"},
		{"parallel", func() error { _, err := NewPlane([]float64{1, 2}, []float64{-2, -4}); return err }, "parallel"},
		{"NaN", func() error { _, err := NewPlane([]float64{math.NaN(), 2}, []float64{1, 0}); return err }, "non-finite"},
		{"d=1 PCA", func() error { _, err := PCAPlane(one); return err }, "dimension 1"},
		{"item range", func() error { _, err := ItemAxesPlane(e, 4); return err }, "out of range"},
		{"same mean", func() error { _, err := DiffPlane(e, 0, 1); return err }, "same mean"},
		{"plane dim", func() error {
			p, _ := NewPlane([]float64{1, 0}, []float64{0, 1})
			_, err := Project(e, p)
			return err
		}, "dimension 2"},
	} {
		err := tc.f()
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: error %v, want %q", tc.name, err, tc.want)
		}
	}
	// A Dirac keeps all of its (zero) variance.
	for i := range e.Scale(0) {
		e.Scale(0)[i] = 0
	}
	p, _ := NewPlane([]float64{1, 0, 0}, []float64{0, 1, 0})
	if k, _ := VarianceKept(e, p); k[0] != 1 {
		t.Errorf("Dirac: variance kept %v, want 1", k[0])
	}
}
