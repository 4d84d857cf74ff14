package icongen

import (
	"bytes"
	"flag"
	"image/png"
	"os"
	"path/filepath"
	"testing"
)

var regen = flag.Bool("regen", false, "rewrite assets/icon.png from Draw")

// iconPath is assets/icon.png relative to this package's directory.
var iconPath = filepath.Join("..", "..", "..", "assets", "icon.png")

// iconSize is the size of the committed icon (fyne package wants >= 256).
const iconSize = 512

// TestIcon checks that assets/icon.png is exactly Draw(iconSize), or
// rewrites it with -regen (via a temp file and rename).
func TestIcon(t *testing.T) {
	img := Draw(iconSize)
	if *regen {
		var buf bytes.Buffer
		if err := png.Encode(&buf, img); err != nil {
			t.Fatal(err)
		}
		tmp := iconPath + ".tmp"
		if err := os.WriteFile(tmp, buf.Bytes(), 0o644); err != nil {
			t.Fatal(err)
		}
		if err := os.Rename(tmp, iconPath); err != nil {
			t.Fatal(err)
		}
		return
	}
	f, err := os.Open(iconPath)
	if err != nil {
		t.Fatalf("%v (run with -regen to create it)", err)
	}
	defer f.Close()
	got, err := png.Decode(f)
	if err != nil {
		t.Fatalf("%s: %v", iconPath, err)
	}
	if got.Bounds() != img.Bounds() {
		t.Fatalf("%s: bounds %v, want %v", iconPath, got.Bounds(), img.Bounds())
	}
	for y := 0; y < iconSize; y++ {
		for x := 0; x < iconSize; x++ {
			r1, g1, b1, a1 := got.At(x, y).RGBA()
			r2, g2, b2, a2 := img.At(x, y).RGBA()
			if r1 != r2 || g1 != g2 || b1 != b2 || a1 != a2 {
				t.Fatalf("%s differs from Draw at (%d,%d); run with -regen", iconPath, x, y)
			}
		}
	}
}

// TestDrawGeometry checks Draw against facts that follow from the shape
// list alone: corners outside the rounded tile are transparent, a point
// inside no ellipse has the background colour, and the centre of the first
// ellipse (covered by it only) is its colour blended over the background.
func TestDrawGeometry(t *testing.T) {
	const n = 200
	img := Draw(n)
	tests := []struct {
		name       string
		x, y       float64 // unit coordinates
		wantOpaque bool
		want       func() [3]float64
	}{
		{"corner", 0.005, 0.005, false, nil},
		{"background", 0.9, 0.1, true, func() [3]float64 {
			return [3]float64{float64(Background.R), float64(Background.G), float64(Background.B)}
		}},
		{"first ellipse only", 0.22, 0.55, true, func() [3]float64 {
			e := Shapes[0]
			a := float64(e.Fill.A) / 255
			return [3]float64{
				float64(Background.R)*(1-a) + float64(e.Fill.R)*a,
				float64(Background.G)*(1-a) + float64(e.Fill.G)*a,
				float64(Background.B)*(1-a) + float64(e.Fill.B)*a,
			}
		}},
	}
	for _, tc := range tests {
		px, py := int(tc.x*n), int(tc.y*n)
		c := img.NRGBAAt(px, py)
		if !tc.wantOpaque {
			if c.A != 0 {
				t.Errorf("%s: alpha %d, want 0", tc.name, c.A)
			}
			continue
		}
		// Make sure the sample point is where the test assumes.
		x, y := (float64(px)+0.5)/n, (float64(py)+0.5)/n
		if tc.name == "first ellipse only" {
			for i, e := range Shapes {
				if in := e.contains(x, y); in != (i == 0) {
					t.Fatalf("%s: test point inside shape %d = %v", tc.name, i, in)
				}
			}
		}
		if c.A != 255 {
			t.Errorf("%s: alpha %d, want 255", tc.name, c.A)
		}
		w := tc.want()
		got := [3]float64{float64(c.R), float64(c.G), float64(c.B)}
		for k := range w {
			if d := got[k] - w[k]; d > 1 || d < -1 {
				t.Errorf("%s: channel %d = %v, want %v", tc.name, k, got[k], w[k])
			}
		}
	}
}
