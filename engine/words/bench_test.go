package words

import (
	"context"
	"fmt"
	"testing"
)

// BenchmarkTrainEpoch times one epoch on a generated corpus of 2,000
// tokens (no subsampling, window 5, one negative) and reports corpus
// tokens per second, for the full model at d = 12 and the diagonal one at
// d = 45 (the same 90 free parameters per measure).
func BenchmarkTrainEpoch(b *testing.B) {
	tokens, ws, counts := plantedCorpus(10, 20, 250, 1)
	for _, c := range []struct {
		d        int
		diagonal bool
	}{{12, false}, {45, true}} {
		b.Run(fmt.Sprintf("d%d_diagonal=%v", c.d, c.diagonal), func(b *testing.B) {
			cfg := PaperConfig()
			cfg.Subsample, cfg.Epochs, cfg.Threads = 0, 1, 2
			m, err := NewModel(ws, counts, c.d, c.d, c.diagonal, 1)
			if err != nil {
				b.Fatal(err)
			}
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				if err := Train(context.Background(), m, tokens, cfg, nil); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(float64(len(tokens))*float64(b.N)/b.Elapsed().Seconds(), "tokens/s")
		})
	}
}

// BenchmarkTrainEpochDefaults times one epoch at the defaults (5
// negatives per pair, a hinge per negative, SGD; subsampling off so that
// every token of the small generated corpus of 20,000 tokens is a center)
// of the full model at d = 12 and reports corpus tokens per second (the
// figure of issue 23's words target, measured on Brown by train-words).
func BenchmarkTrainEpochDefaults(b *testing.B) {
	tokens, ws, counts := plantedCorpus(50, 40, 2500, 1)
	cfg := DefaultConfig()
	cfg.Subsample, cfg.Epochs, cfg.Threads = 0, 1, 2
	m, err := NewModel(ws, counts, 12, 12, false, 1)
	if err != nil {
		b.Fatal(err)
	}
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if err := Train(context.Background(), m, tokens, cfg, nil); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(len(tokens))*float64(b.N)/b.Elapsed().Seconds(), "tokens/s")
}
