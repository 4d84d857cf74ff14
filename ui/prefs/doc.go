// Package prefs is what the desktop app remembers between runs and where:
// the preference keys, and the rule of which settings persist at all.
//
// A setting is global (one value for every dataset: the colouring, the
// labels, the gaussian level, the point-MDS overlay, the iteration budget,
// the backend, standardising and symmetrising), per dataset (the kind its
// file is read as, its model and its ellipse view, fit.DatasetSettings,
// keyed by fit.DatasetKey, newest first and at most 64 datasets), or not
// kept at all (the dataset itself: the app opens on the default built-in
// unless told otherwise). LoadSettings and SaveSettings read and write the
// global part, ForDataset gives a dataset its own part (or the defaults,
// never the previous dataset's), and nothing unchanged is ever written:
// every write makes the store save the whole file. The recent files and
// the last directory of a file dialog (StartIn) live here too.
//
// The store itself is ui/prefstore, a fyne.Preferences of the app's own
// that replaces Fyne's (NewFyneApp): Fyne's rewrite of its file at exit
// races its own reload. docs/ui.md ("Preferences", "Which settings
// persist") has the table; what a side tab changes only while it is in
// front is the app's (ui, session_settings.go).
package prefs
