package relations

import (
	_ "burescope/ui/internal/cleanlocale" // before Fyne: no locale error under LANG=C
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/test"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"burescope/datasets"
	"burescope/engine/hypernymy"
	"burescope/ui/fit"
	"burescope/ui/view"
)

// fakeHost is the app as the Relations tab sees it. Do posts to a queue
// that one goroutine runs in order (the UI goroutine); the test runs its
// own widget work there too, through on.
type fakeHost struct {
	ch      chan func()
	shown   atomic.Pointer[view.EmbView]
	wordnet []string        // OpenWordNet calls, "dir|root"
	accel   fit.Accelerator // nil: the CPU
}

func newFakeHost() *fakeHost {
	h := &fakeHost{ch: make(chan func(), 1<<12)}
	go func() {
		for f := range h.ch {
			f()
		}
	}()
	return h
}

func (h *fakeHost) on(f func()) {
	done := make(chan struct{})
	h.ch <- func() { defer close(done); f() }
	<-done
}

func (h *fakeHost) Shown() *view.EmbView              { return h.shown.Load() }
func (h *fakeHost) OpenWordNet(dir, root string)      { h.wordnet = append(h.wordnet, dir+"|"+root) }
func (h *fakeHost) Install(v *view.EmbView, fit bool) { h.shown.Store(v) }
func (h *fakeHost) Leave()                            { h.shown.Store(nil) }
func (h *fakeHost) PauseFit()                         {}
func (h *fakeHost) OpenDataset(string)                {}
func (h *fakeHost) NewPlane(view.PlaneSpec)           {}
func (h *fakeHost) RefreshStatus()                    {}
func (h *fakeHost) ShowError(title string, err error) {}
func (h *fakeHost) Log() io.Writer                    { return io.Discard }
func (h *fakeHost) Do(f func())                       { h.ch <- f }
func (h *fakeHost) Accelerator() fit.Accelerator      { return h.accel }

// tinyTree is a hand-made hierarchy as (child, ancestor) pairs, its
// transitive closure written out: 9 nouns.
const tinyTree = "dog\tanimal\ncat\tanimal\npuppy\tdog\npuppy\tanimal\nkitten\tcat\nkitten\tanimal\noak\tplant\nrose\tplant\n" +
	"animal\tentity\nplant\tentity\ndog\tentity\ncat\tentity\npuppy\tentity\nkitten\tentity\noak\tentity\nrose\tentity\n"

func loadTree(t *testing.T) *datasets.Dataset {
	t.Helper()
	path := filepath.Join(t.TempDir(), "tree.tsv")
	if err := os.WriteFile(path, []byte(tinyTree), 0o644); err != nil {
		t.Fatal(err)
	}
	ds, err := datasets.Load(path, datasets.Options{})
	if err != nil || len(ds.Relations) != 16 {
		t.Fatalf("tree: %v", err)
	}
	return ds
}

// TestRelationsFormNeedsRelations checks the Relations tab around
// datasets without relations: the form and Start are off with the hint
// shown, and on once a dataset with relations is loaded; the empty
// progress text takes no room; the "show" check is no wider than the
// form (it set the side panel's minimum width before).
func TestRelationsFormNeedsRelations(t *testing.T) {
	test.NewTempApp(t)
	h := newFakeHost()
	var r *Tab
	h.on(func() {
		r = New(h)
		w := test.NewWindow(r.Content())
		w.Resize(fyne.NewSize(320, 800))
		t.Cleanup(func() { h.on(func() { r.Shutdown(); w.Close() }) })
	})
	pisa, err := datasets.Load("builtin:pisa2015", datasets.Options{})
	if err != nil {
		t.Fatal(err)
	}
	h.on(func() { r.DatasetChanged(pisa) }) // no relations
	formState := func() (enabled, disabled int, needs bool) {
		h.on(func() {
			for _, f := range append([]fyne.Disableable{r.epochs, r.start}, r.fields...) {
				if f.Disabled() {
					disabled++
				} else {
					enabled++
				}
			}
			needs = r.needs.Visible()
		})
		return enabled, disabled, needs
	}
	all := len(r.fields) + 2
	if on, _, needs := formState(); on != 0 || !needs {
		t.Errorf("no relations: %d of %d form widgets enabled, hint shown %v; want none enabled, hint shown", on, all, needs)
	}
	var textShown bool
	var checkW, formW float32
	h.on(func() {
		textShown = r.text.Visible()
		checkW, formW = r.show.MinSize().Width, r.form.MinSize().Width
	})
	if textShown {
		t.Error("empty progress text is shown (an empty line under the bar)")
	}
	if checkW > formW {
		t.Errorf("show check is %v wide, wider than the form (%v): it sets the panel's width", checkW, formW)
	}

	h.on(func() { r.DatasetChanged(loadTree(t)) })
	if on, _, needs := formState(); on != all || needs {
		t.Errorf("with relations: %d of %d form widgets enabled, hint shown %v; want all enabled, no hint", on, all, needs)
	}
	h.on(func() {
		for _, f := range [][2]string{{"dim", "2"}, {"epochs", "1"}, {"negatives", "3"}, {"batch", "8"}, {"lr", "0"}, {"seed", "1"}, {"optimizer", hypernymy.Adam}} {
			r.Type(f[0], f[1])
		}
		r.Start()
	})
	deadline := time.Now().Add(30 * time.Second)
	for {
		var done bool
		h.on(func() { done = !r.Running() && r.Last() != nil && r.Last().Done })
		if done {
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("training did not finish")
		}
		time.Sleep(5 * time.Millisecond)
	}
	var text string
	h.on(func() { text, textShown = r.text.Text, r.text.Visible() })
	if !textShown || !strings.HasPrefix(text, "epoch 1 / 1") {
		t.Errorf("after training: progress text %q shown %v", text, textShown)
	}

	// Back to a dataset without relations: the run is forgotten, the form
	// off again and the progress text gone.
	h.on(func() { r.DatasetChanged(pisa) })
	h.on(func() { textShown = r.text.Visible() })
	if on, _, needs := formState(); on != 0 || !needs || textShown {
		t.Errorf("relations gone: %d form widgets enabled, hint %v, progress text shown %v", on, needs, textShown)
	}
}

// TestRelationsBarGreyWhenIdle: the progress bar is drawn in greys while
// no training runs (no dataset, paused, finished) and in the theme's
// colour while training runs, read from the pixels of the window.
func TestRelationsBarGreyWhenIdle(t *testing.T) {
	test.NewTempApp(t)
	h := newFakeHost()
	var r *Tab
	var w fyne.Window
	h.on(func() {
		r = New(h)
		w = test.NewWindow(r.Content())
		w.Resize(fyne.NewSize(320, 1000))
		t.Cleanup(func() { h.on(func() { r.Shutdown(); w.Close() }) })
	})
	// chroma is the spread of R, G and B at the middle of the bar.
	chroma := func() int {
		img := w.Canvas().Capture()
		p := fyne.CurrentApp().Driver().AbsolutePositionForObject(r.bar)
		s := r.bar.Size()
		if !(s.Width > 10 && s.Height > 4) {
			t.Fatalf("bar not laid out: %v", s)
		}
		sc := w.Canvas().Scale()
		c := img.At(int((p.X+s.Width*0.75)*sc), int((p.Y+s.Height/2)*sc))
		cr, cg, cb, _ := c.RGBA()
		hi := max(cr, cg, cb) >> 8
		lo := min(cr, cg, cb) >> 8
		return int(hi - lo)
	}
	const grey, coloured = 12, 30
	var c int
	h.on(func() { c = chroma() })
	if !(c <= grey) {
		t.Errorf("no dataset: bar chroma %d, want a grey (<= %d)", c, grey)
	}
	h.on(func() { r.DatasetChanged(loadTree(t)) })
	h.on(func() {
		for _, f := range [][2]string{{"dim", "2"}, {"epochs", "100000"}, {"negatives", "3"}, {"batch", "8"}} {
			r.Type(f[0], f[1])
		}
		r.Start()
		c = chroma() // running
	})
	if !(c >= coloured) {
		t.Errorf("training: bar chroma %d, want the theme's colour (>= %d)", c, coloured)
	}
	h.on(func() { r.pauseTraining() })
	deadline := time.Now().Add(30 * time.Second)
	for {
		var running bool
		h.on(func() { running = r.Running() })
		if !running {
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("training did not pause")
		}
		time.Sleep(5 * time.Millisecond)
	}
	h.on(func() { c = chroma() })
	if !(c <= grey) {
		t.Errorf("paused: bar chroma %d, want a grey (<= %d)", c, grey)
	}
}

// TestRelationsHelpTextWhole: at every panel width from the narrowest
// the side panel gives a 700 px window (about 260 px) up, each wrapped text of the tab (the
// dataset line, the help text) lies inside the panel and gets the
// height of all its wrapped lines.
func TestRelationsHelpTextWhole(t *testing.T) {
	test.NewTempApp(t)
	h := newFakeHost()
	var r *Tab
	var w fyne.Window
	h.on(func() {
		r = New(h)
		w = test.NewWindow(r.Content())
		t.Cleanup(func() { h.on(func() { r.Shutdown(); w.Close() }) })
	})
	for _, width := range []float32{256, 300, 480} {
		t.Run(fmt.Sprint(width), func(t *testing.T) {
			h.on(func() {
				w.Resize(fyne.NewSize(width, 2000))
				for name, l := range map[string]*widget.Label{"info": r.info, "hint": r.hint} {
					p := fyne.CurrentApp().Driver().AbsolutePositionForObject(l)
					s, m := l.Size(), l.MinSize()
					if !(p.X >= 0 && p.X+s.Width <= width+0.5) {
						t.Errorf("%s spans x %v..%v, outside the panel's %v px", name, p.X, p.X+s.Width, width)
					}
					if !(s.Height >= m.Height-0.5) {
						t.Errorf("%s is %v px high, its wrapped text needs %v: cut off", name, s.Height, m.Height)
					}
					// At least ceil(text width / line width) lines of text.
					text := fyne.MeasureText(l.Text, theme.TextSize(), l.TextStyle)
					lines := math.Ceil(float64(text.Width / (s.Width - 2*theme.InnerPadding())))
					if !(s.Height >= float32(lines)*text.Height) {
						t.Errorf("%s is %v px high, less than %v lines of text", name, s.Height, lines)
					}
				}
			})
		})
	}
}

// TestRelationsProtocolAndSample checks the Protocol and Rank choices: a
// dataset above 10,000 items starts with the 2,000-item sample and a
// small one with all items; the form's choices reach the trainer's
// configuration; a sampled evaluation is marked as an estimate in the
// progress text and the status bar.
func TestRelationsProtocolAndSample(t *testing.T) {
	test.NewTempApp(t)
	h := newFakeHost()
	var r *Tab
	h.on(func() {
		r = New(h)
		w := test.NewWindow(r.Content())
		t.Cleanup(func() { h.on(func() { r.Shutdown(); w.Close() }) })
	})
	// A binary tree of 12,000 items: (child, parent) pairs.
	const n = 12000
	big := &datasets.Dataset{Name: "tree12k.tsv", Labels: make([]string, n)}
	for i := range big.Labels {
		big.Labels[i] = fmt.Sprintf("item%d", i)
		if i > 0 {
			big.Relations = append(big.Relations, [2]int{i, (i - 1) / 2})
		}
	}
	var choice string
	h.on(func() { r.DatasetChanged(big); choice = r.evalOn.Selected })
	if choice != evalSample2k {
		t.Errorf("%d items: Rank starts at %q, want %q", n, choice, evalSample2k)
	}
	h.on(func() { r.DatasetChanged(loadTree(t)); choice = r.evalOn.Selected })
	if choice != evalAll {
		t.Errorf("small tree: Rank starts at %q, want %q", choice, evalAll)
	}
	h.on(func() { r.DatasetChanged(big) })
	var cfg hypernymy.Config
	var err error
	h.on(func() {
		for _, f := range [][2]string{{"dim", "2"}, {"epochs", "1"}, {"negatives", "2"}, {"batch", "2000"}, {"eval-every", "1"},
			{"protocol", hypernymy.Undirected}, {"rank", evalSample500}} {
			r.Type(f[0], f[1])
		}
		cfg, err = r.config()
	})
	if err != nil || cfg.Protocol != hypernymy.Undirected || cfg.EvalRows != 500 {
		t.Fatalf("config %+v, %v; want the undirected protocol and 500 rows", cfg, err)
	}
	h.on(func() { r.Start() })
	deadline := time.Now().Add(60 * time.Second)
	for {
		var done bool
		h.on(func() { done = !r.Running() && r.Last() != nil && r.Last().Done })
		if done {
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("training did not finish")
		}
		time.Sleep(10 * time.Millisecond)
	}
	var text, status string
	var got hypernymy.Config
	var p *hypernymy.Progress
	h.on(func() { text, status, got, p = r.ProgressText(), r.StatusText(), r.train.Trainer().Config(), r.Last() })
	if got.Protocol != hypernymy.Undirected || got.EvalRows != 500 {
		t.Errorf("trainer's configuration %+v", got)
	}
	if p.EvalRows == 0 || p.EvalRows > 500 || p.EvalQueries != n-1 {
		t.Errorf("ranked %d of %d rows, want at most 500 of %d", p.EvalRows, p.EvalQueries, n-1)
	}
	if want := fmt.Sprintf("(estimate: rows of %d of %d items)", p.EvalRows, n-1); !strings.Contains(text, want) {
		t.Errorf("progress text %q lacks %q", text, want)
	}
	if !strings.Contains(status, "MAP ≈ ") {
		t.Errorf("status %q does not mark the MAP as an estimate", status)
	}
}

// TestTrainingTimeLeft: a long training (34 s per epoch, 50 epochs) says
// how long is left, in the progress text and the status bar, and nothing
// once done.
func TestTrainingTimeLeft(t *testing.T) {
	p := &hypernymy.Progress{Epoch: 10, Epochs: 50, EpochSeconds: 34, Loss: 1, MAP: math.NaN()}
	if got := progressText(p); !strings.Contains(got, "34.00 s / epoch, about 22 min 40 s left") {
		t.Errorf("progress %q", got)
	}
	if got := statusText(p, true); !strings.Contains(got, "training, about 22 min 40 s left") {
		t.Errorf("status %q", got)
	}
	p.Epoch, p.Done = 50, true
	if got := progressText(p); strings.Contains(got, "left") {
		t.Errorf("done: %q", got)
	}
}
