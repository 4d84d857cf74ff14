// Package fit is what the desktop app and the command line share about a
// fit, free of Fyne so that both use the same code: the Settings a fit
// is made from with their defaults and checks (DefaultSettings,
// RelationDefaults), how settings become engine options and a problem
// (EngineOptions, Problem: distances, or a trained embedding's W2
// distances), which backend a choice opens (OpenBackend, OpenGL), the one
// entrance to a fit (OpenFit: exact or sampled pairs decided once, the
// problem built, the backend opened, the initial state evaluated), the
// run state machine (RunState), the Session that owns one optimiser and
// the goroutine that runs it with the app's RunRecord of its runs (the
// status bar's state and speed, the "run done" log line), and Training,
// the same for a training from relations.
//
// Session threading: every operation that touches the optimiser (run,
// step, reset, jitter) is queued on a chain of goroutines, each waiting
// for the previous one, so the optimiser is used by one goroutine at a
// time and no call blocks the caller; snapshots are published to an
// atomic slot (newest wins). Training runs one trainer at a time the same
// way, and forwards its newest snapshot, turned into what the app draws
// off the UI goroutine, at most every interval.
package fit
