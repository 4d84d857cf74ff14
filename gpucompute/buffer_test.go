package gpucompute

import (
	"burescope/engine"
	"math"
	"testing"
)

// TestRealSlice checks the host staging conversions: float64 round-trips
// exactly, float32 rounds to nearest.
func TestRealSlice(t *testing.T) {
	src := []float64{0, 1, -2.5, math.Pi, 1e-30, 3e38}
	for _, fp64 := range []bool{false, true} {
		r := realSlice{fp64: fp64}
		_, bytes := r.set(src)
		if want := len(src) * map[bool]int{false: 4, true: 8}[fp64]; bytes != want {
			t.Errorf("fp64=%v: %d bytes, want %d", fp64, bytes, want)
		}
		for k, v := range src {
			want := v
			if !fp64 {
				want = float64(float32(v))
			}
			if got := r.at(k); got != want {
				t.Errorf("fp64=%v: at(%d) = %v, want %v", fp64, k, got, want)
			}
		}
		r.put(2, 7.25)
		if r.at(2) != 7.25 {
			t.Errorf("fp64=%v: put/at = %v", fp64, r.at(2))
		}
	}
}

// TestFillTiles checks the tile layout against engine.PairIndex directly:
// tile (I, J), I <= J, holds D[64I+r][64J+c] at r*64+c, zero on the
// diagonal and beyond n, and chunking splits the same sequence.
func TestFillTiles(t *testing.T) {
	const n = 150 // 3 row blocks, the last one partial
	vals := make([]float64, n*(n-1)/2)
	for k := range vals {
		vals[k] = float64(k + 1)
	}
	b := &Backend{}
	nb := (n + tile - 1) / tile
	nt := nb * (nb + 1) / 2
	whole := &chunk{begin: 0, end: nt}
	b.fillTiles(whole, n, nb, vals, 1)
	var full []float64
	for k := 0; k < nt*tile*tile; k++ {
		full = append(full, b.stage.at(k))
	}
	t0 := 0
	for I := 0; I < nb; I++ {
		for J := I; J < nb; J++ {
			for r := 0; r < tile; r++ {
				for c := 0; c < tile; c++ {
					i, j := I*tile+r, J*tile+c
					var want float64
					if i < n && j < n && i != j {
						want = vals[engine.PairIndex(n, min(i, j), max(i, j))]
					}
					if got := full[t0*tile*tile+r*tile+c]; got != want {
						t.Fatalf("tile (%d,%d) entry (%d,%d) = %v, want %v", I, J, r, c, got, want)
					}
				}
			}
			t0++
		}
	}
	// Chunks of 2 tiles reproduce the same values.
	for begin := 0; begin < nt; begin += 2 {
		c := &chunk{begin: begin, end: min(begin+2, nt)}
		b.fillTiles(c, n, nb, vals, 1)
		for k := 0; k < (c.end-c.begin)*tile*tile; k++ {
			if got, want := b.stage.at(k), full[begin*tile*tile+k]; got != want {
				t.Fatalf("chunk at tile %d, value %d = %v, want %v", begin, k, got, want)
			}
		}
	}
}

// TestCoprimeStride checks that the row-block scramble is a permutation.
func TestCoprimeStride(t *testing.T) {
	for _, nb := range []int{1, 2, 3, 16, 32, 125, 157, 1000, 16384} {
		s := coprimeStride(nb)
		seen := make([]bool, nb)
		for w := 0; w < nb; w++ {
			I := (w * s) % nb
			if seen[I] {
				t.Fatalf("nb=%d stride %d: block %d visited twice", nb, s, I)
			}
			seen[I] = true
		}
	}
}
