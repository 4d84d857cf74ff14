package fit

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// TestDatasetPartRoundTrip: WithDatasetPart puts back exactly the fields
// DatasetPart took and leaves the global ones alone.
func TestDatasetPartRoundTrip(t *testing.T) {
	s := DefaultSettings()
	s.Dim, s.Family, s.Tau, s.View, s.Structure, s.ScaleBudget, s.Kind = 3, "custom", 0.4, "precision", "diagonal", 0.5, "distances"
	s.Backend, s.Iterations, s.ColorBy, s.Symmetrise, s.Standardise = "cpu", 77, "stress", true, "off"
	g := DefaultSettings().WithDatasetPart(s.DatasetPart())
	if g.Dim != 3 || g.Family != "custom" || g.Tau != 0.4 || g.View != "precision" || g.Structure != "diagonal" || g.ScaleBudget != 0.5 || g.Kind != "distances" {
		t.Errorf("per-dataset part not carried: %+v", g)
	}
	if g.Backend != "auto" || g.Iterations == 77 || g.ColorBy != DefaultSettings().ColorBy || g.Symmetrise || g.Standardise != "auto" {
		t.Errorf("global options carried with the dataset part: backend %q iterations %d colour %q symmetrise %v standardise %q",
			g.Backend, g.Iterations, g.ColorBy, g.Symmetrise, g.Standardise)
	}
}

// TestDatasetKey: a built-in is its name; a file is its absolute path,
// and rewriting it (new size or time) makes it another dataset.
func TestDatasetKey(t *testing.T) {
	if got := DatasetKey("builtin:iris"); got != "builtin:iris" {
		t.Errorf("builtin key %q", got)
	}
	dir := t.TempDir()
	path := filepath.Join(dir, "d.csv")
	if err := os.WriteFile(path, []byte("a,b\n1,2\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	k1 := DatasetKey(path)
	if !strings.HasPrefix(k1, path+"|") {
		t.Errorf("file key %q does not start with the absolute path", k1)
	}
	wd, _ := os.Getwd()
	defer os.Chdir(wd)
	if err := os.Chdir(dir); err != nil {
		t.Fatal(err)
	}
	if got := DatasetKey("d.csv"); got != k1 {
		t.Errorf("relative name gives %q, absolute %q", got, k1)
	}
	if err := os.WriteFile(path, []byte("a,b\n1,2\n3,4\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	os.Chtimes(path, time.Now(), time.Now().Add(time.Hour))
	if k2 := DatasetKey(path); k2 == k1 {
		t.Errorf("a rewritten file keeps its key %q", k1)
	}
}

func TestModelViewText(t *testing.T) {
	s := DefaultSettings()
	for _, c := range []struct {
		name string
		edit func(*Settings)
		dim  int
		want string
	}{
		{"defaults", func(*Settings) {}, 2, "d = 2 · uniform · covariance view"},
		{"gaussian precision", func(s *Settings) { s.Family, s.View = "gaussian", "precision" }, 3, "d = 3 · gaussian · precision view"},
		{"custom diagonal budget", func(s *Settings) { s.Family, s.Tau, s.Structure, s.ScaleBudget = "custom", 0.25, "diagonal", 0.1 }, 2,
			"d = 2 · custom τ = 0.25 · diagonal · λ = 0.1 · covariance view"},
	} {
		t.Run(c.name, func(t *testing.T) {
			st := s
			c.edit(&st)
			if got := ModelViewText(c.dim, st); got != c.want {
				t.Errorf("got %q, want %q", got, c.want)
			}
		})
	}
}
