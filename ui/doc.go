// Package ui is Burescope's desktop application (Fyne): a live canvas of
// ellipses, a side panel of data / model / view settings, run controls, the
// stress curve, a geodesic tool, drag and drop, export and preferences.
//
// The package only wires other packages together; it computes nothing
// itself. Its threading contract:
//
//   - One Session (session.go) owns the optimiser goroutine. It runs
//     engine.Optimizer.Run under a context, and every published snapshot
//     is stored in an atomic slot ("newest wins").
//   - One frame loop (frames.go) owns rasterisation: it wakes when the
//     snapshot, the view (style, viewport, size) or the selection changes,
//     draws the ellipses with render.Live into an off-screen image, and
//     hands the finished image to the UI goroutine with fyne.Do. At most
//     one frame is ever queued; frames are capped at about 30 per second.
//   - The UI goroutine only reads finished snapshots and images, swaps
//     them into widgets and handles input. It never computes stress or
//     rasterises ellipses.
//
// Every user-visible failure (a bad file, an export that cannot be
// written) is shown in a dialog with the underlying error text, and the
// current state is kept.
//
// Run is the entry point used by main when the binary is started without
// a subcommand.
package ui
