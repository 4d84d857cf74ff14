package launch

import (
	"burescope/ui/fit"
	"errors"
	"flag"
	"fmt"
	"io"
	"time"
)

// Flags are the desktop app's command-line options (the binary's
// subcommands have their own, in ui/cli).
type Flags struct {
	Dataset    string        // "builtin:NAME" or a path; "" = the default built-in
	Screenshot string        // if set, capture the window to this PNG and quit
	After      time.Duration // delay before the screenshot
	Width      float32       // initial window width in device-independent pixels
	Height     float32       // initial window height
	Backend    string        // "auto", "cpu" or "gl"; "" = preference
}

// ParseFlags parses the app's options, in any order with respect to the
// file: "burescope data.csv --width 900" is "burescope --width 900
// data.csv". A single positional argument is taken as the dataset (so
// "burescope data.csv" opens that file); after "--" every argument is
// positional.
func ParseFlags(args []string, stderr io.Writer) (Flags, error) {
	f := Flags{After: 5 * time.Second, Width: 1280, Height: 800}
	fs := flag.NewFlagSet("burescope", flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.StringVar(&f.Dataset, "dataset", "", "dataset to open: builtin:NAME or a file path")
	fs.StringVar(&f.Screenshot, "screenshot", "", "write a PNG capture of the window to `FILE` and quit")
	fs.DurationVar(&f.After, "after", f.After, "wait this long before --screenshot")
	fs.StringVar(&f.Backend, "backend", "", "compute backend: "+fit.BackendNames+" (default: last used)")
	w := fs.Float64("width", float64(f.Width), "initial window width")
	h := fs.Float64("height", float64(f.Height), "initial window height")
	fs.Usage = func() { FlagUsage(stderr) }
	var rest []string
	for len(args) > 0 {
		if err := fs.Parse(args); err != nil {
			return f, err
		}
		left := fs.Args()
		if used := len(args) - len(left); used > 0 && args[used-1] == "--" {
			rest = append(rest, left...) // after "--": all positional
			break
		}
		if len(left) == 0 {
			break
		}
		rest = append(rest, left[0]) // a file; flags may follow it
		args = left[1:]
	}
	switch {
	case len(rest) == 1 && f.Dataset == "":
		f.Dataset = rest[0]
	case len(rest) > 0:
		return f, fmt.Errorf("unexpected arguments %q", rest)
	}
	if f.After < 0 {
		return f, fmt.Errorf("--after %v: want a non-negative duration", f.After)
	}
	if *w < 200 || *h < 150 || *w > 10000 || *h > 10000 {
		return f, fmt.Errorf("window size %vx%v: want 200x150 to 10000x10000", *w, *h)
	}
	if f.Backend != "" && !fit.Contains(fit.BackendChoices, f.Backend) {
		return f, fmt.Errorf("--backend %q: want %s", f.Backend, fit.BackendNames)
	}
	f.Width, f.Height = float32(*w), float32(*h)
	return f, nil
}

// FlagUsage prints the desktop app's options.
func FlagUsage(w io.Writer) {
	fmt.Fprint(w, `
Desktop app: burescope [options] [FILE] (options before or after FILE)
  --dataset NAME      open builtin:NAME or a file (default builtin:pisa2015)
  --backend B         auto, cpu, gl or gl64
  --width W --height H  initial window size
  --screenshot FILE   capture the window to FILE (PNG) and quit
  --after D           delay before the screenshot (default 5s)
`)
}

// IsHelp reports whether err is ParseFlags' answer to -h (the usage
// was printed: not an error).
func IsHelp(err error) bool { return errors.Is(err, flag.ErrHelp) }
