package cli

import (
	"bytes"
	"strings"
	"testing"
)

func TestBenchJSON(t *testing.T) {
	var so, se bytes.Buffer
	if code := Main([]string{"bench", "--n", "60", "--dim", "3", "--iters", "2", "--backend", "cpu", "--threads", "1"}, &so, &se); code != 0 {
		t.Fatalf("exit %d: %s", code, se.String())
	}
	var r benchResult
	lastJSON(t, so.String(), &r)
	if r.N != 60 || r.Dim != 3 || r.Backend != "cpu" || r.Threads != 1 || !(r.SecondsPerIter > 0) {
		t.Errorf("result %+v", r)
	}
	// ns per pair is seconds per evaluation over the 60*59/2 pairs.
	if want := r.SecondsPerIter * 1e9 / 1770; r.NsPerPair < 0.999*want || r.NsPerPair > 1.001*want {
		t.Errorf("ns_per_pair %v, want %v", r.NsPerPair, want)
	}
	for _, args := range [][]string{{"bench", "--n", "1"}, {"bench", "--dim", "0"}, {"bench", "--iters", "0"}, {"bench", "extra"}} {
		so.Reset()
		se.Reset()
		if code := Main(args, &so, &se); code != 2 || se.Len() == 0 {
			t.Errorf("%v: exit %d, stderr %q", args, code, se.String())
		}
	}
}

func TestBenchProblemSeeded(t *testing.T) {
	p1, s1 := benchProblem(30, 2, 7)
	p2, s2 := benchProblem(30, 2, 7)
	p3, _ := benchProblem(30, 2, 8)
	if p1.Dist[5] != p2.Dist[5] || s1.Scales[9] != s2.Scales[9] || p1.Dist[5] == p3.Dist[5] {
		t.Error("bench problem is not a function of its seed")
	}
	for _, v := range p1.Dist {
		if v < 0.5 || v >= 2.5 {
			t.Fatalf("distance %v outside [0.5, 2.5)", v)
		}
	}
	if !strings.Contains(fitUsage, "--points") {
		t.Error("fit usage lost a flag")
	}
}
