package render

import (
	"image/color"
	"math"
	"testing"
)

func TestViridisAgainstMatplotlib(t *testing.T) {
	// Reference values: matplotlib's viridis at 0, 0.25, 0.5, 0.75 and 1
	// (the commonly listed hex codes #440154, #3b528b, #21918c, #5ec962,
	// #fde725).
	cases := []struct {
		t       float64
		r, g, b float64
	}{
		{0, 0x44, 0x01, 0x54},
		{0.25, 0x3b, 0x52, 0x8b},
		{0.5, 0x21, 0x91, 0x8c},
		{0.75, 0x5e, 0xc9, 0x62},
		{1, 0xfd, 0xe7, 0x25},
	}
	for _, c := range cases {
		got := Viridis(c.t)
		for k, want := range []float64{c.r, c.g, c.b} {
			v := [3]uint8{got.R, got.G, got.B}[k]
			if !(math.Abs(float64(v)-want) <= 3) {
				t.Errorf("Viridis(%.3f) channel %d = %d, matplotlib %.0f", c.t, k, v, want)
			}
		}
	}
	if Viridis(math.NaN()).A != 255 || Viridis(-1) != Viridis(0) || Viridis(2) != Viridis(1) {
		t.Error("Viridis does not clamp or handle NaN")
	}
}

func TestClassColors(t *testing.T) {
	names, idx := ClassColors([]string{"b", "a", "c", "a", "b"})
	if len(names) != 3 || names[0] != "a" || names[1] != "b" || names[2] != "c" {
		t.Errorf("names %v", names)
	}
	want := []int{1, 0, 2, 0, 1}
	for i := range want {
		if idx[i] != want[i] {
			t.Errorf("index %v, want %v", idx, want)
			break
		}
	}
	sc := &Scene{Dim: 1, Means: []float64{0, 1, 2}, Scales: []float64{0, 0, 0}, Classes: []string{"x", "y", "x"}, PerPoint: []float64{1, 3, 2}}
	cc := itemColors(sc, Style{ColorBy: ColorClass}, 3)
	if cc[0] != OkabeIto[0] || cc[1] != OkabeIto[1] || cc[2] != OkabeIto[0] {
		t.Errorf("class colours %v", cc)
	}
	cs := itemColors(sc, Style{ColorBy: ColorStress}, 3)
	if cs[0] != Viridis(0) || cs[1] != Viridis(1) || cs[2] != Viridis(0.5) {
		t.Errorf("stress colours %v", cs)
	}
	var zero color.NRGBA
	if itemColors(sc, Style{}, 3)[0] == zero {
		t.Error("no colour without a colour mode")
	}
}
