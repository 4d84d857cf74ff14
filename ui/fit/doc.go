// Package fit is what the desktop app and the command line share about a
// fit, free of Fyne so that both use the same code: the Settings a fit
// is made from with their defaults and checks (DefaultSettings,
// RelationDefaults), how settings become engine options and a problem
// (EngineOptions, Problem: distances, or a trained embedding's W2
// distances), which stress backend a choice opens (OpenBackend), the run
// state machine (RunState) and the Session that owns one optimiser and
// the goroutine that runs it.
//
// Session threading: every operation that touches the optimiser (run,
// step, reset, jitter) is queued on a chain of goroutines, each waiting
// for the previous one, so the optimiser is used by one goroutine at a
// time and no call blocks the caller; snapshots are published to an
// atomic slot (newest wins).
package fit
