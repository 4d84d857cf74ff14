package cli

import (
	"flag"
	"fmt"
	"slices"
	"strings"

	"burescope/datasets"
	"burescope/engine/emds"
	"burescope/render"
	"burescope/ui/fit"

	"gonum.org/v1/plot/vg"
)

// addStressFigureFlag registers --stress-figure on fs (fit).
func addStressFigureFlag(fs *flag.FlagSet) *string {
	return fs.String("stress-figure", "", "also draw the stress-1 curve (with the point-MDS and classical-MDS references) to this figure (png, svg, pdf or eps)")
}

// checkFigurePath returns an error naming flag when path is set and its
// extension is not a figure format render writes.
func checkFigurePath(flagName, path string) error {
	if path != "" && !slices.Contains(render.Formats, render.FormatOf(path)) {
		return fmt.Errorf("%s %s: unknown format (want %s)", flagName, path, strings.Join(render.Formats, ", "))
	}
	return nil
}

// writeStressFigure draws the stress history of s (render.SnapshotStressCurve)
// to path, with points as the point-MDS reference when the fit computed
// one, at 5 x 3.5 in.
func writeStressFigure(path string, s *emds.Snapshot, points *float64) error {
	sn := *s
	if points != nil {
		sn.PointStress1 = *points
	}
	f, err := render.SnapshotStressCurve(&sn, false)
	if err != nil {
		return fmt.Errorf("%s: %w", path, err)
	}
	return render.SaveFigures(path, render.ExportOptions{Width: 5 * 72, Height: 3.5 * 72}, f)
}

// writeShepard draws the Shepard diagram of the fit s of ds (its packed
// input distances) to path: W2 against input distance, and the point-MDS
// baseline's Euclidean distances beside it when the fit computed one, at
// 4 in per panel by 4 in.
func writeShepard(path string, ds *datasets.Dataset, s *emds.Snapshot) error {
	panels, err := fit.ShepardPanels(ds, s)
	if err != nil {
		return fmt.Errorf("%s: %w", path, err)
	}
	figs, err := render.Shepard(ds.Dist, s.N, panels, false)
	if err != nil {
		return fmt.Errorf("%s: %w", path, err)
	}
	return render.SaveFigures(path, render.ExportOptions{Width: vg.Length(4*len(figs)) * vg.Inch, Height: 4 * vg.Inch}, figs...)
}
