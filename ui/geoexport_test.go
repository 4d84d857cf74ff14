package ui

import (
	"encoding/xml"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// TestGeodesicExportLabels: with the geodesic between two items on the
// canvas, the exported figure names both endpoints and the time t, with
// item labels on or off.
func TestGeodesicExportLabels(t *testing.T) {
	a := newTestApp(t, "builtin:iris")
	pause(t, a)
	a.on(func() {
		a.tabs.SelectIndex(3)
		a.geo.SetPair(0, 100)
		a.geo.SetT(0.25)
	})
	a.loop.Wake()
	eventually(t, "the geodesic frame", func() bool {
		f := a.frame()
		return f != nil && f.Scene != nil && f.Scene.Len() > 150
	})
	maybeShot(t, a, "geodesic-export.png")
	var lab0, lab1 string
	a.on(func() {
		ds := a.sess.Dataset()
		lab0, lab1 = label(ds, 0), label(ds, 100)
	})
	for _, labels := range []bool{false, true} {
		a.on(func() { s := a.set; s.Labels = labels; host{a.App}.ApplyView(s) })
		a.loop.Wake()
		eventually(t, "labels setting drawn", func() bool { f := a.frame(); return f != nil && f.Style.Labels == labels })
		var job *exportJob
		var err error
		a.on(func() { job, err = a.figureJob(figureView, false) })
		if err != nil {
			t.Fatal(err)
		}
		p := filepath.Join(t.TempDir(), "geo.svg")
		if err := job.write(p, 72); err != nil {
			t.Fatal(err)
		}
		b, _ := os.ReadFile(p)
		for _, w := range []string{">" + lab0 + "<", ">" + lab1 + "<", "t = 0.25"} {
			if !strings.Contains(string(b), w) {
				t.Errorf("labels %v: the geodesic export lacks %q", labels, w)
			}
		}
	}
}

// TestFigureSize: the figure dialog's size choice reaches the file: one
// column (3.5 in) wide with the height fitted to the data, or the fixed
// 6 x 5 in page.
func TestFigureSize(t *testing.T) {
	a := newTestApp(t, "builtin:iris")
	pause(t, a)
	for _, tc := range []struct {
		size string
		w    string
		h    func(float64) bool
	}{
		{figureSizes[1].name, "252pt", func(h float64) bool { return h > 72 && h < 252 }},
		{figureSizes[3].name, "432pt", func(h float64) bool { return h == 360 }},
	} {
		a.fa.Preferences().SetString(prefExportSize, tc.size)
		var job *exportJob
		var err error
		a.on(func() { job, err = a.figureJob(figureFit, false) })
		if err != nil {
			t.Fatal(err)
		}
		p := filepath.Join(t.TempDir(), "f.svg")
		if err := job.write(p, 72); err != nil {
			t.Fatal(err)
		}
		var hdr struct {
			W string `xml:"width,attr"`
			H string `xml:"height,attr"`
		}
		b, _ := os.ReadFile(p)
		if err := xml.Unmarshal(b, &hdr); err != nil {
			t.Fatal(err)
		}
		h, _ := strconv.ParseFloat(strings.TrimSuffix(hdr.H, "pt"), 64)
		if hdr.W != tc.w || !tc.h(h) {
			t.Errorf("%s: page %s x %s", tc.size, hdr.W, hdr.H)
		}
	}
}
