package outfile

import (
	"os"
	"os/signal"
	"sync"
	"syscall"
)

var (
	mu   sync.Mutex
	live = map[string]bool{} // temporary files now being written
	sigs chan os.Signal      // receives TERM, INT and HUP while live is not empty
)

// caught are the signals that remove temporary files before they end the
// process: TERM, INT and HUP, less those the process was started with
// ignored (under nohup a hangup must neither end the process nor remove
// the file it is writing).
var caught = notIgnored(syscall.SIGTERM, syscall.SIGINT, syscall.SIGHUP)

func notIgnored(all ...os.Signal) []os.Signal {
	var out []os.Signal
	for _, s := range all {
		if !signal.Ignored(s) {
			out = append(out, s)
		}
	}
	return out
}

// remember registers a temporary file for removal on a signal. The
// signals are only watched while at least one temporary file exists, so a
// program's own handling of them (fit stops its iterations on INT) is
// untouched between writes.
func remember(name string) {
	mu.Lock()
	defer mu.Unlock()
	if sigs == nil {
		sigs = make(chan os.Signal, 1)
		go handle(sigs)
	}
	if len(live) == 0 && len(caught) > 0 {
		signal.Notify(sigs, caught...)
	}
	live[name] = true
}

// forget unregisters a temporary file (renamed or removed).
func forget(name string) {
	mu.Lock()
	defer mu.Unlock()
	if !live[name] {
		return
	}
	delete(live, name)
	if len(live) == 0 {
		signal.Stop(sigs)
	}
}

// handle removes the live temporary files on a signal, restores the
// signal's default action and sends it again, so the process ends as it
// would have without this handler.
func handle(ch chan os.Signal) {
	for sig := range ch {
		mu.Lock()
		for name := range live {
			os.Remove(name)
			delete(live, name)
		}
		signal.Stop(ch)
		mu.Unlock()
		signal.Reset(sig)
		if p, err := os.FindProcess(os.Getpid()); err == nil {
			p.Signal(sig)
		}
	}
}
