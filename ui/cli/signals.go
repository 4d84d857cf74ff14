package cli

import (
	"context"
	"errors"
	"os"
	"os/signal"
	"syscall"
)

// stopSignals end a long computation the way Ctrl-C does (the command
// stops, keeps and reports what it reached): SIGINT, and SIGTERM, which
// timeout(1), kill(1) and service managers send.
var stopSignals = []os.Signal{os.Interrupt, syscall.SIGTERM}

// stopContext returns a context cancelled by the first of stopSignals.
func stopContext() (context.Context, context.CancelFunc) {
	return signal.NotifyContext(context.Background(), stopSignals...)
}

// errInterrupted is what a command stopped by a signal reports, instead of
// Go's "context canceled".
var errInterrupted = errors.New("interrupted (Ctrl-C or SIGTERM)")

// interrupted replaces a cancellation in err by errInterrupted; other
// errors pass unchanged.
func interrupted(err error) error {
	if errors.Is(err, context.Canceled) {
		return errInterrupted
	}
	return err
}
