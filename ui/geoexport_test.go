package ui

import (
	"burescope/ui/export"
	"os"
	"path/filepath"
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
		lab0, lab1 = ds.Labels[0], ds.Labels[100]
	})
	for _, labels := range []bool{false, true} {
		a.on(func() { s := a.set; s.Labels = labels; host{a.App}.ApplyView(s) })
		a.loop.Wake()
		eventually(t, "labels setting drawn", func() bool { f := a.frame(); return f != nil && f.Style.Labels == labels })
		var job *export.Job
		var err error
		a.on(func() { job, err = a.exp.FigureJob(export.DrawView, false) })
		if err != nil {
			t.Fatal(err)
		}
		p := filepath.Join(t.TempDir(), "geo.svg")
		if err := job.Write(p, 72); err != nil {
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
