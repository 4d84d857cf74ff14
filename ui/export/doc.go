// Package export writes what the app's canvas shows to files: the
// figure (PNG, SVG or PDF, by the file's extension), the embedding
// (JSON, datasets.SaveEmbedding; or one CSV row per item with its label,
// class, mean and covariance tau*C), the stress curve (CSV), and the
// Shepard diagram, which it also shows in a dialog.
//
// An export is a Job: what to write is captured on the UI goroutine (the
// fit's snapshot and dataset, or the trained or loaded embedding on the
// canvas; for a figure the frame on screen, overlays and 3-D rotation
// included, or the fit alone), so that the writing, which may be slow,
// runs on a goroutine of its own. A figure is light for print unless the
// dialog asks for dark, its page is one of a few journal sizes with the
// height fitted to the data, and its caption names what is drawn (the
// geodesic tool's badge, else "fit", then render's caption, then the
// point-MDS overlay). The figure dialog's choices (resolution, size,
// background) are remembered here; the last directory is ui/prefs'.
//
// The Exporter knows the app only through Host, a few questions about
// what is on the canvas plus the window and its preferences: the app's
// host type answers them.
package export
