package render

import (
	"image/color"
	"math"
	"sort"
)

// OkabeIto is the colour-blind-safe categorical palette of Okabe and Ito
// (2008, "Color Universal Design"), black moved last because it is used
// for text; classes beyond eight cycle.
var OkabeIto = []color.NRGBA{
	{0xE6, 0x9F, 0x00, 0xff}, // orange
	{0x56, 0xB4, 0xE9, 0xff}, // sky blue
	{0x00, 0x9E, 0x73, 0xff}, // bluish green
	{0xF0, 0xE4, 0x42, 0xff}, // yellow
	{0x00, 0x72, 0xB2, 0xff}, // blue
	{0xD5, 0x5E, 0x00, 0xff}, // vermillion
	{0xCC, 0x79, 0xA7, 0xff}, // reddish purple
	{0x60, 0x60, 0x60, 0xff}, // grey (Okabe-Ito black, lightened to show fills)
}

// viridisStops are matplotlib's viridis at t = 0, 1/8, ..., 1 (its
// 9-colour listing); Viridis interpolates linearly between them.
var viridisStops = [9][3]float64{
	{0x44, 0x01, 0x54}, {0x47, 0x2c, 0x7a}, {0x3b, 0x51, 0x8b},
	{0x2c, 0x71, 0x8e}, {0x21, 0x90, 0x8d}, {0x27, 0xad, 0x81},
	{0x5c, 0xc8, 0x63}, {0xaa, 0xdc, 0x32}, {0xfd, 0xe7, 0x25},
}

// Viridis maps t in [0, 1] (clamped; NaN gives grey) to the perceptually
// uniform sequential map viridis.
func Viridis(t float64) color.NRGBA {
	if math.IsNaN(t) {
		return color.NRGBA{0x9a, 0x9a, 0x9a, 0xff}
	}
	t = math.Max(0, math.Min(1, t)) * 8
	i := int(t)
	if i >= 8 {
		i = 7
	}
	f := t - float64(i)
	a, b := viridisStops[i], viridisStops[i+1]
	c := func(k int) uint8 { return uint8(math.Round(a[k] + f*(b[k]-a[k]))) }
	return color.NRGBA{c(0), c(1), c(2), 0xff}
}

// ClassColors returns the sorted distinct class names and, per item, the
// index of its class in that list.
func ClassColors(classes []string) (names []string, index []int) {
	seen := map[string]bool{}
	for _, c := range classes {
		if !seen[c] {
			seen[c] = true
			names = append(names, c)
		}
	}
	sort.Strings(names)
	pos := make(map[string]int, len(names))
	for i, n := range names {
		pos[n] = i
	}
	index = make([]int, len(classes))
	for i, c := range classes {
		index[i] = pos[c]
	}
	return names, index
}

// stressRange returns the finite min and max of v (0, 1 if none).
func stressRange(v []float64) (lo, hi float64) {
	lo, hi = math.Inf(1), math.Inf(-1)
	for _, x := range v {
		if math.IsNaN(x) || math.IsInf(x, 0) {
			continue
		}
		lo, hi = math.Min(lo, x), math.Max(hi, x)
	}
	if lo > hi {
		return 0, 1
	}
	// Near-equal values (3.75e14..3.76e14) are not stretched over the
	// whole palette: the range spans at least minStressSpan of its centre,
	// so they all come out near its middle colour.
	c := 0.5 * (lo + hi)
	if w := minStressSpan * math.Abs(c); hi-lo < w {
		lo, hi = c-0.5*w, c+0.5*w
	}
	return lo, hi
}

// minStressSpan is the smallest range of the stress colour scale relative
// to its centre: values that differ by less than 10% are drawn in nearly
// one colour rather than from one end of the palette to the other.
const minStressSpan = 0.1

// stressSum is the sum of the finite per-item stresses (the total the
// tooltip's and legend's shares are of).
func stressSum(v []float64) float64 {
	sum := 0.0
	for _, x := range v {
		if !math.IsNaN(x) && !math.IsInf(x, 0) {
			sum += x
		}
	}
	return sum
}

// singleColor is the fill of ColorNone.
var singleColor = color.NRGBA{0x00, 0x72, 0xB2, 0xff}

// itemColors returns the opaque fill colour of every item under st.
func itemColors(sc *Scene, st Style, n int) []color.NRGBA {
	out := make([]color.NRGBA, n)
	switch {
	case st.ColorBy == ColorClass && len(sc.Classes) == n:
		_, idx := ClassColors(sc.Classes)
		for i := range out {
			out[i] = OkabeIto[idx[i]%len(OkabeIto)]
		}
	case st.ColorBy == ColorStress && len(sc.PerPoint) == n:
		rampColors(out, sc.PerPoint, stressRange)
	case st.ColorBy == ColorValue && len(sc.Values) == n:
		rampColors(out, sc.Values, valueRange)
	default:
		for i := range out {
			out[i] = singleColor
		}
	}
	return out
}

// valueRange is the finite range of a numeric column (0, 1 when there is
// none); a constant column gets the palette's middle colour.
func valueRange(v []float64) (lo, hi float64) {
	lo, hi = math.Inf(1), math.Inf(-1)
	for _, x := range v {
		if !math.IsNaN(x) && !math.IsInf(x, 0) {
			lo, hi = math.Min(lo, x), math.Max(hi, x)
		}
	}
	if lo > hi {
		return 0, 1
	}
	return lo, hi
}

// rampColors sets out[i] to the viridis colour of v[i] on the range
// rng(v) gives (grey for NaN and infinities: overlays).
func rampColors(out []color.NRGBA, v []float64, rng func([]float64) (float64, float64)) {
	lo, hi := rng(v)
	span := hi - lo
	for i, x := range v {
		t := 0.5
		if span > 0 {
			t = (x - lo) / span
		}
		if math.IsNaN(x) || math.IsInf(x, 0) {
			t = math.NaN()
		}
		out[i] = Viridis(t)
	}
}
