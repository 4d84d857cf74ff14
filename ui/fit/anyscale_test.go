package fit

import (
	"math"
	"math/rand/v2"
	"strconv"
	"strings"
	"testing"

	"burescope/datasets"
	"burescope/engine/emds"
)

// matrixCSV returns a 60 x 60 distance matrix (random points in 3-D, so
// a plane cannot hold it exactly) multiplied by s, as a CSV file's bytes.
func matrixCSV(s float64) []byte {
	rng := rand.New(rand.NewPCG(9, 10))
	const n = 60
	x := make([][3]float64, n)
	for i := range x {
		x[i] = [3]float64{rng.NormFloat64(), rng.NormFloat64(), rng.NormFloat64()}
	}
	var b strings.Builder
	for i := 0; i < n; i++ {
		b.WriteString(",p" + strconv.Itoa(i))
	}
	b.WriteString("\n")
	for i := 0; i < n; i++ {
		b.WriteString("p" + strconv.Itoa(i))
		for j := 0; j < n; j++ {
			d := math.Sqrt((x[i][0]-x[j][0])*(x[i][0]-x[j][0])+(x[i][1]-x[j][1])*(x[i][1]-x[j][1])+(x[i][2]-x[j][2])*(x[i][2]-x[j][2])) * s
			b.WriteString("," + strconv.FormatFloat(d, 'g', -1, 64))
		}
		b.WriteString("\n")
	}
	return []byte(b.String())
}

// The app's fit room opens a 60 x 60 matrix of distances around 1e-160
// (or 1e-120, 1e300) through the same entrance as the command line and
// fits it to the stress-1 of its unit-scale copy (before: 100% CPU for
// ever at 1e-160, stress-1 0.126 against 0.00023 at 1e-120).
func TestSessionFitsAnyScale(t *testing.T) {
	fit := func(s float64) *emds.Snapshot {
		ds, err := datasets.LoadBytes(matrixCSV(s), "m.csv", datasets.Options{})
		if err != nil {
			t.Fatal(err)
		}
		st := DefaultSettings()
		st.Iterations = 150
		sess := NewSession()
		defer sess.Close()
		if err := openIn(sess, ds, st, emds.NewCPUBackend(1), "cpu"); err != nil {
			t.Fatalf("scale %g: %v", s, err)
		}
		sess.Start()
		eventually(t, "the run to end", func() bool { st := sess.State(); return st == StateDone || st == StateFailed })
		if err := sess.Err(); err != nil {
			t.Fatalf("scale %g: %v", s, err)
		}
		return sess.Snapshot()
	}
	ref := fit(1)
	if !(ref.Stress1 > 1e-3) || ref.Iter == 0 {
		t.Fatalf("unit scale: stress-1 %v after %d iterations", ref.Stress1, ref.Iter)
	}
	for _, s := range []float64{1e-160, 1e-120, 1e300} {
		got := fit(s)
		if got.Iter != ref.Iter || math.Abs(got.Stress1-ref.Stress1) > 1e-9*ref.Stress1 {
			t.Errorf("scale %g: %d iterations, stress-1 %.10g; unit scale %d, %.10g", s, got.Iter, got.Stress1, ref.Iter, ref.Stress1)
		}
	}
}
