package cli

import (
	"bufio"
	"bytes"
	"encoding/json"
	"math"
	"strings"
	"testing"
)

func TestGeodesicLines(t *testing.T) {
	// Items a and b of diagEmbedding have commuting (diagonal) scales, so
	// the curve is explicit: mean (1-t) a + t b and, per axis,
	// sqrt(cov(t)) = (1-t) sqrt(cov_a) + t sqrt(cov_b) (docs/math.md geodesic
	// with T = diag(sqrt(cov_b/cov_a))). While these stay positive
	// (t in (-1, 2) for a, b here) the Hellinger form gives
	// W2(c(t), a) = |t| W and W2(c(t), b) = |1-t| W with W = W2(a, b).
	p := writeTemp(t, "emb.json", diagEmbedding)
	var out, errOut bytes.Buffer
	args := []string{"geodesic", p, "--from", "a", "--to", "b, with comma", "--t", "-0.5,0,0.5,1,1.5"}
	if code := Main(args, &out, &errOut); code != 0 {
		t.Fatalf("exit %d: %s", code, errOut.String())
	}
	ma, mb := [2]float64{0, 0}, [2]float64{3, 4}
	ca, cb := [2]float64{4, 1}, [2]float64{1, 9}
	w := diagW2(0, 1)
	sc := bufio.NewScanner(&out)
	var ts []float64
	for sc.Scan() {
		var l geodesicLine
		dec := json.NewDecoder(strings.NewReader(sc.Text()))
		dec.DisallowUnknownFields()
		if err := dec.Decode(&l); err != nil {
			t.Fatalf("bad line %q: %v", sc.Text(), err)
		}
		ts = append(ts, l.T)
		for k := 0; k < 2; k++ {
			if want := (1-l.T)*ma[k] + l.T*mb[k]; !(math.Abs(l.Mean[k]-want) <= 1e-12) {
				t.Errorf("t=%v: mean[%d] = %v, want %v", l.T, k, l.Mean[k], want)
			}
			r := (1-l.T)*math.Sqrt(ca[k]) + l.T*math.Sqrt(cb[k])
			if want := r * r; !(math.Abs(l.Covariance[k][k]-want) <= 1e-9*math.Max(1, want)) {
				t.Errorf("t=%v: cov[%d][%d] = %v, want %v", l.T, k, k, l.Covariance[k][k], want)
			}
		}
		if !(math.Abs(l.Covariance[0][1]) <= 1e-12) || !(math.Abs(l.Covariance[1][0]) <= 1e-12) {
			t.Errorf("t=%v: off-diagonal covariance %v", l.T, l.Covariance)
		}
		if want := math.Abs(l.T) * w; !(math.Abs(l.W2ToFrom-want) <= 1e-7*w) {
			t.Errorf("t=%v: w2_to_from = %v, want %v", l.T, l.W2ToFrom, want)
		}
		if want := math.Abs(1-l.T) * w; !(math.Abs(l.W2ToTo-want) <= 1e-7*w) {
			t.Errorf("t=%v: w2_to_to = %v, want %v", l.T, l.W2ToTo, want)
		}
	}
	if len(ts) != 5 || ts[0] != -0.5 || ts[4] != 1.5 {
		t.Errorf("times %v, want the 5 given in order", ts)
	}
}

func TestGeodesicFromDirac(t *testing.T) {
	// From the Dirac item (zero scale) to a: C(t) = t^2 cov_a (the curve is
	// built from a's end; T^{a,dirac} = 0).
	p := writeTemp(t, "emb.json", diagEmbedding)
	var out, errOut bytes.Buffer
	if code := Main([]string{"geodesic", p, "--from", "dirac", "--to", "a", "--t", "0.5,2"}, &out, &errOut); code != 0 {
		t.Fatalf("exit %d: %s", code, errOut.String())
	}
	dec := json.NewDecoder(&out)
	for _, tt := range []float64{0.5, 2} {
		var l geodesicLine
		if err := dec.Decode(&l); err != nil {
			t.Fatal(err)
		}
		if want := tt * tt * 4; !(math.Abs(l.Covariance[0][0]-want) <= 1e-12) {
			t.Errorf("t=%v: cov[0][0] = %v, want %v", tt, l.Covariance[0][0], want)
		}
	}
}

func TestGeodesicErrors(t *testing.T) {
	p := writeTemp(t, "emb.json", diagEmbedding)
	for _, tc := range []struct {
		name string
		args []string
		code int
		want string
	}{
		{"missing --to", []string{"geodesic", p, "--from", "a"}, 2, "--to"},
		{"unknown label", []string{"geodesic", p, "--from", "a", "--to", "zzz"}, 1, `"zzz"`},
		{"bad t", []string{"geodesic", p, "--from", "a", "--to", "dirac", "--t", "0,x,1"}, 2, `"x"`},
		{"NaN t", []string{"geodesic", p, "--from", "a", "--to", "dirac", "--t", "NaN"}, 2, "finite"},
		{"no file", []string{"geodesic", "--from", "a", "--to", "b"}, 2, "exactly one"},
	} {
		var out, errOut bytes.Buffer
		code := Main(tc.args, &out, &errOut)
		if code != tc.code || !strings.Contains(errOut.String(), tc.want) {
			t.Errorf("%s: exit %d (want %d), stderr %q (want %q)", tc.name, code, tc.code, errOut.String(), tc.want)
		}
	}
}
