package hypernymy

import (
	"context"
	"math"
	"testing"

	"burescope/engine"
)

// engineMaps is PairMaps by the engine's exact references (CrossTrace,
// TransportMap): what an accelerator must compute.
type engineMaps struct{ calls int }

func (e *engineMaps) TransportPairs(d int, scales []float64, pairs []int32, tr, tuv, tvu []float64) error {
	e.calls++
	dd := d * d
	for k := 0; k < len(pairs)/2; k++ {
		a, b := scales[int(pairs[2*k])*dd:][:dd], scales[int(pairs[2*k+1])*dd:][:dd]
		tr[k] = engine.CrossTrace(a, b, d)
		x, err := engine.TransportMap(a, b, d)
		if err != nil {
			return err
		}
		y, err := engine.TransportMap(b, a, d)
		if err != nil {
			return err
		}
		copy(tuv[k*dd:], x)
		copy(tvu[k*dd:], y)
	}
	return nil
}

// A trainer whose batches go through an accelerator computing the exact
// traces and transport maps takes the CPU kernels' steps: after a few
// epochs from the same seed (the same negatives) its parameters and
// losses agree to rounding, at d = 2, 3 and 5 and under both protocols.
func TestAccelTrainsLikeCPU(t *testing.T) {
	n, pairs := hypTinyTree()
	for _, tc := range []struct {
		d     int
		proto string
	}{{2, Directed}, {3, Undirected}, {5, Directed}} {
		cfg := Config{Dim: tc.d, Negatives: 5, BatchSize: 8, Optimizer: Adam, LR: 0.05, Seed: 9, Epochs: 4, EvalEvery: -1, Protocol: tc.proto, NoEval: true}
		cpu, err := NewTrainer(n, pairs, cfg)
		if err != nil {
			t.Fatal(err)
		}
		maps := &engineMaps{}
		cfg.Accel = maps
		acc, err := NewTrainer(n, pairs, cfg)
		if err != nil {
			t.Fatal(err)
		}
		for _, tr := range []*Trainer{cpu, acc} {
			if _, err := tr.Step(context.Background(), 4); err != nil {
				t.Fatal(err)
			}
		}
		if maps.calls == 0 {
			t.Fatalf("d = %d: the accelerator was never called", tc.d)
		}
		var worst float64
		for k := range cpu.params {
			e := math.Abs(cpu.params[k]-acc.params[k]) / (1 + math.Abs(cpu.params[k]))
			worst = math.Max(worst, e)
		}
		if worst > 1e-9 {
			t.Errorf("d = %d, %s: parameters differ by %.2g after 4 epochs", tc.d, tc.proto, worst)
		}
		lc, la := cpu.Latest().Losses, acc.Latest().Losses
		for e := range lc {
			if math.Abs(lc[e]-la[e]) > 1e-9*math.Abs(lc[e]) {
				t.Errorf("d = %d, %s: epoch %d loss %v, CPU %v", tc.d, tc.proto, e+1, la[e], lc[e])
			}
		}
	}
}
