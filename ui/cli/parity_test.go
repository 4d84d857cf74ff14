package cli

import (
	"bytes"
	"os"
	"path/filepath"
	"strconv"
	"testing"
	"time"

	"burescope/datasets"
	"burescope/engine"
	"burescope/ui/fit"
)

// TestFitMatchesAppSession fits the same data with the same settings
// through `burescope fit` and through the app's session (fit.Session,
// what the Model tab drives) and wants the same stress to the last bit:
// one place decides the defaults, the options and the backend. The data
// is a distance matrix and a trained embedding (fitted to its own W2
// distances, starting from it, in both).
func TestFitMatchesAppSession(t *testing.T) {
	emb := &engine.Embedding{Family: engine.Gaussian(), Dim: 2}
	for i := 0; i < 12; i++ {
		a, b := float64(i%4), float64(i/4)
		emb.Labels = append(emb.Labels, "w"+strconv.Itoa(i))
		emb.Means = append(emb.Means, a+0.1*b*b, b-0.05*a)
		emb.Scales = append(emb.Scales, 0.2+0.05*a, 0.02*b, 0.02*b, 0.1+0.03*b)
	}
	embPath := filepath.Join(t.TempDir(), "emb.json")
	if err := datasets.SaveEmbedding(embPath, emb); err != nil {
		t.Fatal(err)
	}
	const iters = 40
	for _, tc := range []struct {
		name, input string
		flags       []string
		edit        func(*fit.Settings)
	}{
		{"pisa2015 defaults", "builtin:pisa2015", nil, func(*fit.Settings) {}},
		{"iris gaussian d=3 gd", "builtin:iris", []string{"--family", "gaussian", "--dim", "3", "--optimizer", "gd", "--seed", "7"},
			func(s *fit.Settings) { s.Family, s.Dim, s.Optimizer, s.Seed = "gaussian", 3, "gd", 7 }},
		{"trained embedding", embPath, nil, func(*fit.Settings) {}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			args := append([]string{"fit", tc.input, "--iters", strconv.Itoa(iters), "--tol", "0", "--backend", "cpu", "--baseline=false"}, tc.flags...)
			var so, se bytes.Buffer
			if code := Main(args, &so, &se); code != 0 {
				t.Fatalf("exit %d, stderr %s", code, se.String())
			}
			var r fitResult
			lastJSON(t, so.String(), &r)

			st := fit.DefaultSettings()
			st.Dataset, st.Iterations, st.Tol, st.Backend, st.Symmetrise = tc.input, iters, 0, "cpu", false // the CLI's flags
			tc.edit(&st)
			ds, err := datasets.Load(tc.input, fit.DatasetOptions(st, ""))
			if err != nil {
				t.Fatal(err)
			}
			o, err := fit.OpenFit(ds, st, fit.OpenHow{Backend: fit.BackendOptions{Log: os.Stderr}})
			if err != nil {
				t.Fatal(err)
			}
			s := fit.NewSession()
			defer s.Close()
			s.Open(o)
			if !s.Start() { // the app's Start: runs to the iteration budget
				t.Fatal("the session did not start")
			}
			deadline := time.Now().Add(60 * time.Second)
			for s.State() != fit.StateDone {
				if time.Now().After(deadline) {
					t.Fatalf("the session's run did not end: state %v", s.State())
				}
				time.Sleep(2 * time.Millisecond)
			}
			s.Wait()
			snap := s.Snapshot()
			if snap.Iter != r.Iters || snap.Stress != r.Stress || snap.Stress1 != r.Stress1 || snap.Family.Name != r.Family {
				t.Errorf("session: %d iterations, stress %v, stress-1 %v, %s; fit: %d, %v, %v, %s",
					snap.Iter, snap.Stress, snap.Stress1, snap.Family.Name, r.Iters, r.Stress, r.Stress1, r.Family)
			}
		})
	}
}
