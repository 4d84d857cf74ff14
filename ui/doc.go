// Package ui is Burescope's desktop application (Fyne). It keeps Run,
// the window and its layout, the menus and shortcuts, drag and drop,
// export and preferences, and it is the only package that knows every
// side tab: it builds them (Data, Model, View, Geodesic, Explore,
// Relations, each a package under ui/tab built with New(host)) and is
// their host. The rooms below it:
//
//   - ui/fit: settings, defaults, backend choice, the run state machine
//     and the Session (shared with the command line, ui/cli);
//   - ui/view: the frame loop, the overlays and tooltips, embedding views;
//   - ui/widget: the canvas and the charts.
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
