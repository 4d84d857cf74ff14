// Package ui is Burescope's desktop application (Fyne). It keeps Run and
// the App, which wires the rooms below it together: the window and its
// layout, what the canvas shows, loading a dataset, the status bar, and
// which settings a side tab changes only while it is in front. It is the
// only package that knows every side tab: it builds them (Data, Model,
// View, Geodesic, Explore, Relations, each a package under ui/tab built
// with New(host)) and is their host (host.go), as it is the host of the
// rooms that ask the app anything. The rooms below it:
//
//   - ui/fit: settings, defaults, backend choice, the run state machine,
//     the Session and the record of its runs (shared with the command
//     line, ui/cli);
//   - ui/view: the frame loop, the overlays and tooltips, embedding views,
//     the picture's orientation;
//   - ui/widget: the canvas, the charts, the run controls and search box;
//   - ui/prefs: what is remembered between runs, and the store;
//   - ui/launch: the command line, the first dataset's preload,
//     --screenshot, the work deferred to the first frame;
//   - ui/export: the files written from the canvas, the Shepard diagram;
//   - ui/menu: the main menu, shortcuts, drag and drop, the dialogs.
//
// What the canvas shows is one value, App.shown: nil for the session's
// MDS fit, else the loaded or trained embedding (view.EmbView).
//
// Threading. The UI goroutine only reads finished snapshots and images,
// swaps them into widgets and handles input; it never computes stress,
// projections or neighbours, and never rasterises ellipses. The other
// goroutines, each handing its results to the UI goroutine with fyne.Do
// (App.Do, dropped once the window closed):
//
//   - the session's optimiser goroutines (fit.Session: one at a time,
//     chained), which publish snapshots to an atomic slot (newest wins);
//   - the frame loop (view.Loop), which draws when the Input key or the
//     view changed, at most about 30 frames a second, one frame queued;
//   - loaders and one-off workers, counted in App.loads so that shutdown
//     waits for them: file loads (with a NumPy file's progress), the
//     geodesic tab's metric-derivative samples, the Explore tab's
//     neighbour queries and reprojections, the fit of a loaded
//     embedding;
//   - the Relations tab's training goroutine and its pump, which projects
//     the newest trained snapshot and posts at most one update at a time;
//   - the Geodesic tab's play ticker.
//
// Every user-visible failure (a bad file, an export that cannot be
// written) is shown in a dialog with the underlying error text, and the
// current state is kept.
//
// Run is the entry point used by main when the binary is started without
// a subcommand.
package ui
