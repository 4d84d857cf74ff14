// Package menu is the window's commands: the main menu (File, Run, View,
// Help), the modifier shortcuts (Ctrl+O open, Ctrl+E export figure,
// Ctrl+F find), the files dropped on the window, the Open dialog, and the
// help ("What am I looking at?") and About dialogs.
//
// A command does what one of the app's Actions does; the menu keeps only
// the View menu's check marks (Check: the ellipse view in use and the
// point-MDS baseline). A drop opens one data file, or two that form an
// Embedding Projector pair, the metadata file being the one whose name
// contains "meta"; anything else is refused with a dialog and the state
// is kept. The single-key shortcuts (Space, S, R, F) belong to the canvas
// and the window, not here: the Run menu only names them.
package menu
