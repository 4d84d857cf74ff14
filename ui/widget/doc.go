// Package widget holds the app's Fyne widgets that draw: the Canvas that
// shows the frames of a view.Loop and turns input into view changes, and
// the charts (stress curve, relations curve, metric derivative, variance
// kept, the t ticks) drawn with one chart helper (chart.go), and the
// toolbar above the canvas: the run controls (RunControls, whose main
// button keeps its width through its labels), the search box with its
// suggestions (Search, CompletionEntry) and the bar that moves what does
// not fit into a menu (OverflowBar).
package widget
