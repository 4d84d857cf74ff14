package cli

import (
	"fmt"
	"io"
	"os"
	"strings"
	"time"
)

// progressBar draws a one-line progress bar on a terminal (stderr),
// redrawn in place with a carriage return at most ten times a second.
type progressBar struct {
	w     io.Writer
	total int
	start time.Time
	last  time.Time
	drawn bool
}

// newProgressBar returns a bar for total iterations writing to w.
func newProgressBar(w io.Writer, total int) *progressBar {
	return &progressBar{w: w, total: total, start: time.Now()}
}

// isTerminal reports whether w is a character device (a terminal).
func isTerminal(w io.Writer) bool {
	f, ok := w.(*os.File)
	if !ok {
		return false
	}
	st, err := f.Stat()
	return err == nil && st.Mode()&os.ModeCharDevice != 0
}

// line renders the bar for iteration it with the current stress-1.
func (p *progressBar) line(it int, stress1 float64, elapsed time.Duration) string {
	const width = 30
	frac := 0.0
	if p.total > 0 {
		frac = float64(it) / float64(p.total)
	}
	if frac > 1 {
		frac = 1
	}
	fill := int(frac * width)
	return fmt.Sprintf("\r[%s%s] %3.0f%% iter %d/%d  stress-1 %.4g  %.1fs",
		strings.Repeat("#", fill), strings.Repeat(".", width-fill), 100*frac, it, p.total, stress1, elapsed.Seconds())
}

// Update redraws the bar (rate-limited unless force).
func (p *progressBar) Update(it int, stress1 float64, force bool) {
	now := time.Now()
	if !force && p.drawn && now.Sub(p.last) < 100*time.Millisecond {
		return
	}
	p.last = now
	p.drawn = true
	fmt.Fprint(p.w, p.line(it, stress1, now.Sub(p.start)))
}

// Done ends the bar's line.
func (p *progressBar) Done() {
	if p.drawn {
		fmt.Fprintln(p.w)
	}
}
