package export

import (
	"context"
	"encoding/xml"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/test"

	"burescope/datasets"
	"burescope/engine/emds"
	"burescope/render"
	"burescope/ui/fit"
	"burescope/ui/view"
)

// fakeHost is an app with a fit and nothing on its canvas yet.
type fakeHost struct {
	snap *emds.Snapshot
	ds   *datasets.Dataset
	st   fit.Settings
	p    fyne.Preferences
	t    *testing.T
}

func (h fakeHost) Snapshot() *emds.Snapshot      { return h.snap }
func (h fakeHost) Dataset() *datasets.Dataset    { return h.ds }
func (h fakeHost) Shown() *view.EmbView          { return nil }
func (h fakeHost) Settings() fit.Settings        { return h.st }
func (h fakeHost) Frame() *view.Frame            { return nil }
func (h fakeHost) Badge() string                 { return "" }
func (h fakeHost) ViewStyle() render.Style       { return fit.Style(h.st, false) }
func (h fakeHost) Dark() bool                    { return false }
func (h fakeHost) Window() fyne.Window           { return nil }
func (h fakeHost) Preferences() fyne.Preferences { return h.p }
func (h fakeHost) ShowError(title string, err error) {
	h.t.Errorf("%s: %v", title, err)
}
func (h fakeHost) Log() io.Writer { return io.Discard }
func (h fakeHost) Do(f func())    { f() }

// fittedHost is a fakeHost with the classical-MDS start of name's fit.
func fittedHost(t *testing.T, name string) fakeHost {
	t.Helper()
	st := fit.DefaultSettings()
	st.Dataset, st.Backend = name, "cpu"
	ds, err := fit.LoadDataset(name, st, "")
	if err != nil {
		t.Fatal(err)
	}
	o, err := fit.OpenFit(ds, st, fit.OpenHow{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(o.Close)
	snap, err := o.Optimizer.Step(context.Background(), 0)
	if err != nil {
		t.Fatal(err)
	}
	return fakeHost{snap: snap, ds: ds, st: st, p: test.NewTempApp(t).Preferences(), t: t}
}

// TestFigureSize: the figure dialog's size choice reaches the file: one
// column (3.5 in) wide with the height fitted to the data, or the fixed
// 6 x 5 in page.
func TestFigureSize(t *testing.T) {
	host := fittedHost(t, "builtin:iris")
	e := New(host)
	for _, tc := range []struct {
		size string
		w    string
		h    func(float64) bool
	}{
		{figureSizes[1].name, "252pt", func(h float64) bool { return h > 72 && h < 252 }},
		{figureSizes[3].name, "432pt", func(h float64) bool { return h == 360 }},
	} {
		host.p.SetString(prefExportSize, tc.size)
		job, err := e.FigureJob(DrawFit, false)
		if err != nil {
			t.Fatal(err)
		}
		p := filepath.Join(t.TempDir(), "f.svg")
		if err := job.Write(p, 72); err != nil {
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
