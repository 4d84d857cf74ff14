package datasets

import "fmt"

// The rule for an asymmetric distance matrix, the same in the CLI and the
// app: by default (Options.Symmetrize false) Load refuses it with an error
// naming the first cell that differs from its transpose by more than
// SymmetryTol; with Options.Symmetrize set it averages D and its
// transpose, records the largest difference in Dataset.Asymmetry, and the
// caller must show SymmetrizeNotice (the CLI on stderr, the app on the
// dataset card or status bar) so the averaging is never silent.

// SymmetrizeNotice returns one line saying that the matrix was averaged
// with its transpose and the largest asymmetry found (the pair and
// |D_ij - D_ji|, absolute and relative), or "" when nothing beyond
// SymmetryTol was averaged.
func (d *Dataset) SymmetrizeNotice() string {
	a := d.Asymmetry
	if a.Abs == 0 {
		return ""
	}
	return fmt.Sprintf("%s: not symmetric; averaged D and its transpose (largest asymmetry |D(%s, %s) - D(%s, %s)| = %.6g, %.3g%% of the larger)",
		d.Name, label(d.Labels, a.I), label(d.Labels, a.J), label(d.Labels, a.J), label(d.Labels, a.I), a.Abs, 100*a.Rel)
}

// Notices returns the lines a user must see about how the data was read:
// the detected kind and why (Detected) and the symmetrisation notice, in
// that order, leaving out empty ones. The CLI prints them on stderr; the
// app shows them with the dataset.
func (d *Dataset) Notices() []string {
	var out []string
	for _, s := range []string{d.Detected, d.SymmetrizeNotice()} {
		if s != "" {
			out = append(out, s)
		}
	}
	return out
}

// label returns labels[i], or "" when there are no labels.
func label(labels []string, i int) string {
	if i < len(labels) {
		return labels[i]
	}
	return ""
}
