package ui

import (
	"burescope/ui/tab/geodesic"
	"testing"
)

// TestGeodesicComputeTracked checks that the metric-derivative worker is
// one of the app's loads (shutdown waits for them): once a.loads.Wait
// returns, its result is on the plot.
func TestGeodesicComputeTracked(t *testing.T) {
	a := newTestApp(t, "builtin:pisa2015")
	pause(t, a)
	var shown bool
	a.on(func() { shown = a.geo.Plot().PlaceholderShown() })
	if !shown {
		t.Error("no placeholder before a pair is picked")
	}
	a.on(func() { a.geo.SetPair(0, 1) })
	a.loads.Wait()
	var n int
	a.on(func() { n, shown = a.geo.Plot().Samples(), a.geo.Plot().PlaceholderShown() })
	if n != geodesic.Samples || shown {
		t.Errorf("after loads.Wait: %d samples on the plot (want %d), placeholder shown %v", n, geodesic.Samples, shown)
	}
}
