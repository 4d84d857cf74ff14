package render

import "testing"

// BenchmarkLayoutFill5k is the layout of 5040 heavily overlapping
// ellipses without (plain) and with the readability choices (overlap
// depth, automatic glyph factor, adaptive opacity, largest-first order).
func BenchmarkLayoutFill5k(b *testing.B) {
	sc := heavyScene()
	big := &Scene{Dim: 2, Tau: 1}
	for k := 0; k < 56; k++ {
		big.Means = append(big.Means, sc.Means...)
		big.Scales = append(big.Scales, sc.Scales...)
	}
	for _, glyph := range []GlyphMode{GlyphOff, GlyphAuto} {
		st := DefaultStyle()
		st.Glyph = glyph
		st.AdaptiveAlpha = glyph == GlyphAuto
		b.Run(map[GlyphMode]string{GlyphOff: "plain", GlyphAuto: "auto"}[glyph], func(b *testing.B) {
			var lay Layout
			for i := 0; i < b.N; i++ {
				lay.Fill(big, st)
			}
		})
	}
}
