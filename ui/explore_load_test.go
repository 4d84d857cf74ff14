package ui

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"burescope/datasets"
)

func TestExploreCancelKeepsState(t *testing.T) {
	a := newTestApp(t, "builtin:pisa2015")
	pause(t, a)
	before := a.sess.Snapshot()
	started := make(chan struct{})
	// The real loader, held at its first progress report until the load
	// is cancelled: a slow file.
	a.on(func() {
		a.explore.SetLoader(func(ctx context.Context, path string, opt datasets.NPYOptions, progress func(int, int)) (*datasets.Dataset, error) {
			first := true
			return datasets.LoadNPYDataset(ctx, path, opt, func(done, total int) {
				progress(done, total)
				if first {
					first = false
					close(started)
					<-ctx.Done()
				}
			})
		})
	})
	a.on(func() { a.open(authorsNPZ, "", true) })
	<-started
	eventually(t, "progress shown", func() bool {
		return a.check(func() bool { return a.explore.Loading() && a.explore.LoadBox().Visible() && !a.curve.Visible() })
	})
	a.on(func() { a.explore.CancelLoad() })
	a.loads.Wait()
	a.on(func() {})
	var loading, curveShown bool
	var lastError string
	a.on(func() { loading, curveShown, lastError = a.explore.Loading(), a.curve.Visible(), a.lastError })
	if loading || !curveShown {
		t.Errorf("after cancel: loading %v, stress curve shown %v", loading, curveShown)
	}
	if lastError != "" {
		t.Errorf("a cancelled load showed an error: %q", lastError)
	}
	if a.shown.Load() != nil || a.sess.Snapshot() != before || a.sess.Dataset().Name != "builtin:pisa2015" {
		t.Error("a cancelled load changed the state")
	}
	if !strings.Contains(a.log.String(), "cancelled") {
		t.Errorf("log: %s", a.log.String())
	}
}

func TestExploreBadNumPyKeepsState(t *testing.T) {
	a := newTestApp(t, "builtin:pisa2015")
	pause(t, a)
	before := a.sess.Snapshot()
	bad := filepath.Join(t.TempDir(), "broken.npz")
	if err := os.WriteFile(bad, []byte("not a zip archive"), 0o644); err != nil {
		t.Fatal(err)
	}
	// The loader's own message for this file.
	_, loadErr := datasets.LoadNPY(bad, datasets.NPYOptions{})
	if loadErr == nil {
		t.Fatal("the loader accepted a broken file")
	}
	openAndWait(t, a, bad)
	var lastError string
	var curveShown bool
	a.on(func() { lastError, curveShown = a.lastError, a.curve.Visible() })
	if !strings.Contains(lastError, loadErr.Error()) {
		t.Errorf("dialog %q does not carry the loader's error %q", lastError, loadErr)
	}
	if !curveShown || a.shown.Load() != nil || a.sess.Snapshot() != before {
		t.Error("a failed load changed the state")
	}
}
