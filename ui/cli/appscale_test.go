package cli

import (
	"math"
	"math/rand/v2"
	"strconv"
	"strings"
	"testing"

	"burescope/datasets"
	"burescope/engine/emds"
	"burescope/ui/fit"
)

// matrix60 returns a 60 x 60 distance matrix (random points in 3-D)
// multiplied by s, as CSV text.
func matrix60(s float64) string {
	rng := rand.New(rand.NewPCG(21, 22))
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
			dx, dy, dz := x[i][0]-x[j][0], x[i][1]-x[j][1], x[i][2]-x[j][2]
			b.WriteString("," + strconv.FormatFloat(math.Sqrt(dx*dx+dy*dy+dz*dz)*s, 'g', -1, 64))
		}
		b.WriteString("\n")
	}
	return b.String()
}

// TestAppAndCLIFitAnyScale: the command line (`fit`) and the app's fit
// room (fit.Session, what the window runs) fit a 60 x 60 matrix at 1e-160
// to the stress-1 of its unit-scale copy, with the same iterations.
func TestAppAndCLIFitAnyScale(t *testing.T) {
	cli := func(s float64) fitResult {
		code, so, se := run("fit", writeTemp(t, "m.csv", matrix60(s)), "--iters", "120", "--backend", "cpu", "--baseline=false")
		if code != 0 {
			t.Fatalf("scale %g: exit %d: %s", s, code, se)
		}
		var r fitResult
		lastJSON(t, so, &r)
		return r
	}
	app := func(s float64) *emds.Snapshot {
		ds, err := datasets.LoadBytes([]byte(matrix60(s)), "m.csv", datasets.Options{})
		if err != nil {
			t.Fatal(err)
		}
		st := fit.DefaultSettings()
		st.Iterations = 120
		sess := fit.NewSession()
		defer sess.Close()
		o, err := fit.OpenFit(ds, st, fit.OpenHow{Given: emds.NewCPUBackend(1), GivenDesc: "cpu"})
		if err != nil {
			t.Fatal(err)
		}
		sess.Open(o)
		sess.Start()
		for sess.State() != fit.StateDone && sess.State() != fit.StateFailed {
			sess.Wait()
		}
		if err := sess.Err(); err != nil {
			t.Fatalf("scale %g: %v", s, err)
		}
		return sess.Snapshot()
	}
	ref := cli(1)
	if !(ref.Stress1 > 1e-3) {
		t.Fatalf("unit scale: %+v", ref)
	}
	for _, s := range []float64{1, 1e-160} {
		c, a := cli(s), app(s)
		if c.Iters != ref.Iters || math.Abs(c.Stress1-ref.Stress1) > 1e-9*ref.Stress1 {
			t.Errorf("fit at %g: %d iterations, stress-1 %.10g; unit scale %d, %.10g", s, c.Iters, c.Stress1, ref.Iters, ref.Stress1)
		}
		if a.Iter != ref.Iters || math.Abs(a.Stress1-ref.Stress1) > 1e-9*ref.Stress1 {
			t.Errorf("app at %g: %d iterations, stress-1 %.10g; command line at unit scale %d, %.10g", s, a.Iter, a.Stress1, ref.Iters, ref.Stress1)
		}
	}
}
