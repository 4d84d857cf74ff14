package datasets

import (
	"fmt"
	"path/filepath"
	"strings"
	"testing"
)

// TestOnePSDCheck: a JSON embedding and the same embedding saved by NumPy
// get the same verdict from the one PSD check: accepted with the same
// scales, or refused with the same eigenvalue. The matrices' eigenvalues
// are known by construction (2x2 [[a, b], [b, a]] has a+b and a-b).
func TestOnePSDCheck(t *testing.T) {
	cases := []struct {
		name string
		a, b float64
		want string // "" accepts
	}{
		{"definite", 2, 1, ""},
		{"singular", 1, 1, ""},
		{"negative within tolerance", 1, 1 + 1e-12, ""},
		{"indefinite", 1, 2, "eigenvalue -1"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			cov := []float64{c.a, c.b, c.b, c.a, 1, 0, 0, 1}
			js := fmt.Sprintf(`{"format":"burescope-embedding/1","dim":2,"family":"gaussian","labels":["p","q"],"means":[[0,0],[1,1]],"covariances":[[[%v,%v],[%v,%v]],[[1,0],[0,1]]]}`, c.a, c.b, c.b, c.a)
			dsJ, errJ := LoadBytes([]byte(js), "e.json", Options{})
			dir := t.TempDir()
			path := writeFile(t, dir, "e.npz", npzBytes(map[string][]byte{
				"means": npyBytes("<f8", false, []int{2, 2}, []float64{0, 0, 1, 1}),
				"vars":  npyBytes("<f8", false, []int{2, 2, 2}, cov),
			}, false))
			eN, errN := LoadNPY(filepath.Clean(path), NPYOptions{})
			if c.want != "" {
				if errJ == nil || errN == nil || !strings.Contains(errJ.Error(), c.want) || !strings.Contains(errN.Error(), c.want) {
					t.Errorf("JSON error %v, NPY error %v; want both to say %q", errJ, errN, c.want)
				}
				return
			}
			if errJ != nil || errN != nil {
				t.Fatalf("JSON %v, NPY %v", errJ, errN)
			}
			for k, v := range dsJ.Embedding.Scales {
				if w := eN.Scales[k]; !(v == w) {
					t.Errorf("scale entry %d: JSON %v, NPY %v", k, v, w)
				}
			}
		})
	}
}
