package render

import (
	"bytes"
	"flag"
	"image"
	"image/png"
	"math"
	"os"
	"path/filepath"
	"testing"

	"burescope/engine/emds"
)

var update = flag.Bool("update", false, "rewrite the golden images in testdata")

// Golden tolerance: a pixel differs when one of its channels differs by
// more than goldenChannelTol; an image matches when at most
// goldenPixelFrac of its pixels differ. This absorbs last-bit float
// differences (e.g. fused multiply-add on other architectures) and font
// hinting changes, while any change in geometry or colour fails.
const (
	goldenChannelTol = 3
	goldenPixelFrac  = 0.002
)

func goldenCompare(t *testing.T, name string, img image.Image) {
	t.Helper()
	path := filepath.Join("testdata", name+".png")
	if *update {
		var buf bytes.Buffer
		if err := png.Encode(&buf, img); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, buf.Bytes(), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	f, err := os.Open(path)
	if err != nil {
		t.Fatalf("%v (run go test -update to create it)", err)
	}
	defer f.Close()
	want, err := png.Decode(f)
	if err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	if want.Bounds() != img.Bounds() {
		t.Fatalf("%s: size %v, golden %v", name, img.Bounds(), want.Bounds())
	}
	b := img.Bounds()
	bad := 0
	for y := b.Min.Y; y < b.Max.Y; y++ {
		for x := b.Min.X; x < b.Max.X; x++ {
			r1, g1, b1, a1 := img.At(x, y).RGBA()
			r2, g2, b2, a2 := want.At(x, y).RGBA()
			d := max(absDiff(r1, r2), absDiff(g1, g2), absDiff(b1, b2), absDiff(a1, a2)) >> 8
			if d > goldenChannelTol {
				bad++
			}
		}
	}
	if frac := float64(bad) / float64(b.Dx()*b.Dy()); frac > goldenPixelFrac {
		// Kept after the test (testdata/failed is git-ignored) so the
		// difference can be looked at, or promoted with -update.
		fail := filepath.Join("testdata", "failed", name+".png")
		var buf bytes.Buffer
		png.Encode(&buf, img)
		if err := os.MkdirAll(filepath.Dir(fail), 0o755); err == nil {
			os.WriteFile(fail, buf.Bytes(), 0o644)
		}
		t.Errorf("%s: %d pixels (%.3f%%) differ from the golden image; got %s", name, bad, 100*frac, fail)
	}
}

func absDiff(a, b uint32) uint32 {
	if a > b {
		return a - b
	}
	return b - a
}

func liveImage(sc *Scene, st Style, w, h int) *image.RGBA {
	dst := image.NewRGBA(image.Rect(0, 0, w, h))
	var vp Viewport
	vp.FitTo(sc, st, w, h)
	var l Live
	l.Draw(dst, sc, st, vp)
	return dst
}

func TestGoldenLive(t *testing.T) {
	cov := fixtureScene()
	cov.Selected = []int{2}
	cov.Highlight = []int{5}
	st := DefaultStyle()
	st.ColorBy = ColorClass
	goldenCompare(t, "live_covariance", liveImage(cov, st, 480, 360))

	prec := fixtureScene()
	st = DefaultStyle()
	st.View, st.ColorBy = Precision, ColorStress
	goldenCompare(t, "live_precision", liveImage(prec, st, 480, 360))

	s3 := fixture3D()
	st = DefaultStyle()
	st.Dark = true
	goldenCompare(t, "live_3d", liveImage(s3, st, 400, 360))
}

func exportPNG(t *testing.T, draw func(path string) error) image.Image {
	t.Helper()
	path := filepath.Join(t.TempDir(), "fig.png")
	if err := draw(path); err != nil {
		t.Fatal(err)
	}
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	img, err := png.Decode(f)
	if err != nil {
		t.Fatal(err)
	}
	return img
}

func TestGoldenExport(t *testing.T) {
	sc := fixtureScene()
	st := DefaultStyle()
	st.ColorBy = ColorClass
	img := exportPNG(t, func(p string) error {
		return ExportFile(p, sc, st, ExportOptions{Width: 5 * 72, Height: 4 * 72, DPI: 96, Title: "Fixture, covariance view"})
	})
	if b := img.Bounds(); b.Dx() != 480 || b.Dy() != 384 {
		t.Errorf("5 x 4 in at 96 dpi is %v, want 480 x 384", b)
	}
	goldenCompare(t, "export_covariance", img)

	geo := exportPNG(t, func(p string) error {
		return SaveGeodesicFigure(p, geoPairs[0].e, PaperTimes, PaperRefs, ExportOptions{DPI: 96}, false)
	})
	goldenCompare(t, "geodesic", geo)

	hist := make([]float64, 1000)
	for i := range hist {
		hist[i] = 0.6*math.Exp(-float64(i)/120) + 0.005
	}
	stress := exportPNG(t, func(p string) error {
		f, err := SnapshotStressCurve(&emds.Snapshot{History: hist, PointStress1: 0.21, ClassicalStress1: 0.62}, false)
		if err != nil {
			return err
		}
		return SaveFigures(p, ExportOptions{Width: 5 * 72, Height: 3.5 * 72, DPI: 96}, f)
	})
	goldenCompare(t, "stress_curve", stress)
}

// TestGoldenReadable covers the readability modes: automatic glyphs with
// a hovered item at full size and class barycenters, outline only, and
// the glyph export with its caption.
func TestGoldenReadable(t *testing.T) {
	heavy := heavyScene()
	heavy.Hovered = []int{7}
	var err error
	if heavy.Barycenters, err = ClassBarycenters(heavy); err != nil {
		t.Fatal(err)
	}
	st := DefaultStyle()
	st.ColorBy = ColorClass
	st.Labels = false
	goldenCompare(t, "live_glyph", liveImage(heavy, st, 480, 360))

	st = DefaultStyle()
	st.ColorBy, st.NoFill = ColorClass, true
	goldenCompare(t, "live_outline", liveImage(fixtureScene(), st, 480, 360))

	exp := heavyScene()
	exp.Dataset = "heavy overlap"
	st = DefaultStyle()
	st.ColorBy, st.Labels = ColorClass, false
	img := exportPNG(t, func(p string) error {
		return ExportFile(p, exp, st, ExportOptions{Width: 5 * 72, Height: 4 * 72, DPI: 96})
	})
	goldenCompare(t, "export_glyph", img)
}
