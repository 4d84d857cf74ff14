package hypernymy

import (
	"context"
	"math"
	"testing"

	"burescope/engine"
)

// refResident is Resident by the engine's exact references (CrossTrace,
// TransportMap) on the host: what an accelerator must compute, so that
// the Trainer's side of the resident protocol (the index lists, the
// touched items, Adam's bias correction, the divergence rule) is tested
// without a GPU.
type refResident struct {
	n, d         int
	eps          float64
	adam         bool
	params, m, v []float64
	losses       []float64
	diverged     bool
}

func (r *refResident) StartResident(n, d int, eps float64, adam bool, params []float64) error {
	r.n, r.d, r.eps, r.adam = n, d, eps, adam
	r.params = append([]float64(nil), params...)
	r.m, r.v = make([]float64, len(params)), make([]float64, len(params))
	return nil
}

func (r *refResident) ResidentStep(pairs, starts, items, offs, slots []int32, step float64) error {
	d, dd := r.d, r.d*r.d
	per := d + dd
	means, fact := r.params[:r.n*d], r.params[r.n*d:]
	scale := func(i int) []float64 { return engine.FactorProduct(fact[i*dd:(i+1)*dd], d, d, r.eps) }
	np := len(pairs) / 2
	score, weight := make([]float64, np), make([]float64, np)
	slotv := make([]float64, 2*np*per)
	for k := 0; k < np; k++ {
		u, v := int(pairs[2*k]), int(pairs[2*k+1])
		au, av := scale(u), scale(v)
		var dot float64
		for c := 0; c < d; c++ {
			dot += means[u*d+c] * means[v*d+c]
		}
		score[k] = dot + engine.CrossTrace(au, av, d)
		tuv, err := engine.TransportMap(au, av, d)
		if err != nil {
			return err
		}
		tvu, err := engine.TransportMap(av, au, d)
		if err != nil {
			return err
		}
		su, sv := slotv[2*k*per:], slotv[(2*k+1)*per:]
		copy(su, means[v*d:(v+1)*d])
		copy(sv, means[u*d:(u+1)*d])
		for _, x := range []struct {
			t, l, out []float64
		}{{tuv, fact[u*dd:], su[d:]}, {tvu, fact[v*dd:], sv[d:]}} {
			for i := 0; i < d; i++ {
				for j := 0; j < d; j++ {
					var s float64
					for q := 0; q < d; q++ {
						s += x.t[i*d+q] * x.l[q*d+j]
					}
					x.out[i*d+j] = s
				}
			}
		}
	}
	var sum float64
	for g := 0; g+1 < len(starts); g++ {
		lo, hi := int(starts[g]), int(starts[g+1])
		best := math.Inf(-1)
		for j := lo; j < hi; j++ {
			best = math.Max(best, score[j])
		}
		var z float64
		for j := lo; j < hi; j++ {
			z += math.Exp(score[j] - best)
		}
		sum += math.Log(z) + best - score[lo]
		for j := lo; j < hi; j++ {
			weight[j] = math.Exp(score[j]-best) / z
		}
		weight[lo]--
	}
	r.losses = append(r.losses, sum)
	if math.IsNaN(sum) || math.IsInf(sum, 0) {
		r.diverged = true
	}
	if r.diverged {
		return nil
	}
	for t, i := range items {
		moves := false
		g := make([]float64, per)
		for _, s := range slots[offs[t]:offs[t+1]] {
			w := weight[s/2]
			moves = moves || s%2 == 0 || w != 0
			for e := range g {
				g[e] += w * slotv[int(s)*per+e]
			}
		}
		if !moves {
			continue
		}
		for e, ge := range g {
			at := int(i)*d + e
			if e >= d {
				at = r.n*d + int(i)*dd + e - d
			}
			if r.adam {
				r.m[at] = 0.9*r.m[at] + (1-0.9)*ge
				r.v[at] = 0.999*r.v[at] + (1-0.999)*ge*ge
				r.params[at] -= step * r.m[at] / (math.Sqrt(r.v[at]) + 1e-12)
			} else {
				r.params[at] -= step * ge
			}
		}
	}
	return nil
}

func (r *refResident) ResidentLosses(dst []float64) ([]float64, error) {
	dst = append(dst, r.losses...)
	r.losses, r.diverged = r.losses[:0], false
	return dst, nil
}

func (r *refResident) ReadResident(params []float64) error {
	copy(params, r.params)
	return nil
}

// A trainer whose steps go through a resident accelerator computing the
// exact traces and transport maps takes the CPU kernels' steps: after
// every epoch from the same seed (the same negatives) its parameters and
// losses agree to rounding, with SGD and Adam, under both protocols (a
// positive without negatives, the Undirected root's, touches only its
// query), and a diverging run stops in the same epoch.
func TestResidentTrainsLikeCPU(t *testing.T) {
	n, pairs := hypTinyTree()
	for _, tc := range []struct {
		d     int
		opt   string
		proto string
		lr    float64
	}{{2, SGD, Directed, 0.05}, {3, Adam, Undirected, 0.05}, {5, Adam, Directed, 0.05}, {3, SGD, Directed, 1e8}} {
		cfg := Config{Dim: tc.d, Negatives: 5, BatchSize: 8, Optimizer: tc.opt, LR: tc.lr, Seed: 9, Epochs: 4, Protocol: tc.proto, NoEval: true}
		cpu, err := NewTrainer(n, pairs, cfg)
		if err != nil {
			t.Fatal(err)
		}
		cfg.Resident = &refResident{}
		res, err := NewTrainer(n, pairs, cfg)
		if err != nil {
			t.Fatal(err)
		}
		failed := false
		for e := 0; e < cfg.Epochs; e++ {
			pc, errc := cpu.Step(context.Background(), 1)
			pr, errr := res.Step(context.Background(), 1)
			if (errc == nil) != (errr == nil) {
				t.Fatalf("%+v, epoch %d: CPU %v, resident %v", tc, e+1, errc, errr)
			}
			var worst float64
			for k := range cpu.params {
				worst = math.Max(worst, math.Abs(cpu.params[k]-res.params[k])/(1+math.Abs(cpu.params[k])))
			}
			// A diverging run's parameters grow to 1e100 and beyond, where
			// rounding differences grow with them: only where it fails is
			// compared.
			if tc.lr < 1 && (worst > 1e-9 || math.Abs(pc.Loss-pr.Loss) > 1e-9*math.Abs(pc.Loss)) {
				t.Errorf("%+v, epoch %d: parameters differ by %.2g, loss %v against %v", tc, e+1, worst, pr.Loss, pc.Loss)
			}
			if errc != nil {
				if tc.lr < 1 {
					t.Fatal(errc)
				}
				failed = true
				break
			}
		}
		if tc.lr >= 1 && !failed {
			t.Errorf("%+v: no divergence in %d epochs", tc, cfg.Epochs)
		}
	}
}
