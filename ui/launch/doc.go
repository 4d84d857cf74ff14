// Package launch is how the desktop app starts: what the command line asks
// of it and what is done before its window is up.
//
// ParseFlags reads the app's options (--dataset, --backend, the window
// size, --screenshot FILE --after D) in any order with respect to the one
// file a user may name, and InitialSettings puts the dataset and backend
// they name on top of the remembered settings (ui/prefs). StartPreload
// then reads that first dataset and opens its fit (fit.OpenFit: the
// distances, classical MDS, the backend) on a worker goroutine while the
// window is being built; the app's ordinary load path Takes it when it
// asks for the same file under the same settings, and does the work
// again, reporting any error, otherwise. A Shot is the --screenshot
// option: the window captured after a delay (the GL driver's capture,
// else Fyne's software painter, Capture), written as PNG, and the app
// quit. StartProfile writes a CPU profile of the run when
// BURESCOPE_CPUPROFILE names a file, and Icon draws the window icon.
//
// Nothing here knows the App: the package sits below ui, which wires it.
package launch
