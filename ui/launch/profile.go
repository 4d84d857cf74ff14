package launch

import (
	"fmt"
	"io"
	"os"
	"runtime/pprof"
)

// StartProfile writes a CPU profile of the whole session to the file
// named by BURESCOPE_CPUPROFILE (if set) and returns the function that
// ends it (go tool pprof burescope FILE).
func StartProfile(stderr io.Writer) func() {
	path := os.Getenv("BURESCOPE_CPUPROFILE")
	if path == "" {
		return func() {}
	}
	f, err := os.Create(path)
	if err != nil {
		fmt.Fprintf(stderr, "burescope: cpu profile: %v\n", err)
		return func() {}
	}
	if err := pprof.StartCPUProfile(f); err != nil {
		fmt.Fprintf(stderr, "burescope: cpu profile: %v\n", err)
		f.Close()
		return func() {}
	}
	return func() {
		pprof.StopCPUProfile()
		f.Close()
	}
}
