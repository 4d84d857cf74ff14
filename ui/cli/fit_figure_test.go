package cli

import (
	"bytes"
	"image"
	_ "image/png"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestFitFigure checks `fit --figure`: the PNG decodes at the export's
// default size (6in x 5in at 300 dpi = 1800 x 1500 px, render.ExportOptions)
// and holds coloured (non-grey) pixels, i.e. filled class-coloured
// ellipses of iris; an SVG of PISA carries country labels; an
// unknown extension is a usage error before any work is done.
func TestFitFigure(t *testing.T) {
	dir := t.TempDir()
	png := filepath.Join(dir, "iris.png")
	var so, se bytes.Buffer
	if code := Main([]string{"fit", "builtin:iris", "--iters", "50", "--backend", "cpu", "--figure", png}, &so, &se); code != 0 {
		t.Fatalf("exit %d, stderr %s", code, se.String())
	}
	f, err := os.Open(png)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	img, _, err := image.Decode(f)
	if err != nil {
		t.Fatalf("decode %s: %v", png, err)
	}
	if b := img.Bounds(); b.Dx() != 1800 || b.Dy() != 1500 {
		t.Errorf("figure is %v, want 1800 x 1500", b)
	}
	coloured := 0
	b := img.Bounds()
	for y := b.Min.Y; y < b.Max.Y; y += 3 {
		for x := b.Min.X; x < b.Max.X; x += 3 {
			r, g, bl, _ := img.At(x, y).RGBA()
			if max3(r, g, bl)-min3(r, g, bl) > 0x2000 {
				coloured++
			}
		}
	}
	if coloured < 1000 {
		t.Errorf("only %d coloured sample pixels: no filled ellipses?", coloured)
	}

	svg := filepath.Join(dir, "pisa.svg")
	so.Reset()
	se.Reset()
	if code := Main([]string{"fit", "builtin:pisa2015", "--iters", "20", "--backend", "cpu", "--figure", svg}, &so, &se); code != 0 {
		t.Fatalf("exit %d, stderr %s", code, se.String())
	}
	data, err := os.ReadFile(svg)
	if err != nil {
		t.Fatal(err)
	}
	for _, label := range []string{"Finland", "Mexico", "Japan"} {
		if !strings.Contains(string(data), label) {
			t.Errorf("SVG lacks the label %q", label)
		}
	}

	se.Reset()
	if code := Main([]string{"fit", "builtin:pisa2015", "--figure", filepath.Join(dir, "x.gif")}, &so, &se); code != 2 {
		t.Errorf("--figure x.gif: exit %d, want 2 (usage); stderr %s", code, se.String())
	}
	if _, err := os.Stat(filepath.Join(dir, "x.gif")); err == nil {
		t.Error("--figure x.gif wrote a file")
	}
}

func max3(a, b, c uint32) uint32 { return max(a, max(b, c)) }
func min3(a, b, c uint32) uint32 { return min(a, min(b, c)) }
