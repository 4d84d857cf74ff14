// Package shotcheck checks a screenshot of the Burescope window: that the
// canvas area (right of the side panel, above the stress curve) holds
// ellipses, i.e. enough pixels that differ from the live view's
// background. .ci/e2e.sh runs it as
//
//	go run ./ui/internal/shotcheck/cmd shot.png
package shotcheck
