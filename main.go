// Command burescope draws data as ellipses: elliptical MDS in the
// 2-Wasserstein space of elliptical distributions (Muzellec & Cuturi,
// NeurIPS 2018).
//
// With no arguments it opens the desktop app on the built-in PISA 2015
// dataset; with a command (fit, bench, render, ...) it runs headless.
// App options (--dataset, --screenshot FILE --after 5s, ...) or a single
// data file also open the app.
package main

import (
	"os"
	"strings"

	"burescope/ui"
	"burescope/ui/cli"
	"burescope/ui/launch"
)

func main() {
	os.Exit(run(os.Args[1:]))
}

// run routes the command line: a known subcommand (or help) goes to the
// headless CLI, anything else opens the desktop app.
func run(args []string) int {
	if isCLI(args) {
		// BURESCOPE_CPUPROFILE profiles a headless command as it does the app.
		stop := launch.StartProfile(os.Stderr)
		code := cli.Main(args, os.Stdout, os.Stderr)
		stop()
		if len(args) > 0 && isHelp(args[0]) {
			launch.FlagUsage(os.Stdout)
		}
		return code
	}
	return ui.Run(args, os.Stderr)
}

// isCLI reports whether args name a subcommand (or ask for help) rather
// than the desktop app. A first argument that is neither a flag nor an
// existing file is treated as a (possibly mistyped) command, so the CLI
// can say it is unknown.
func isCLI(args []string) bool {
	if len(args) == 0 {
		return false
	}
	a := args[0]
	switch {
	case isHelp(a):
		return true
	case cli.Has(a):
		return true
	case len(a) > 0 && a[0] == '-':
		return false
	}
	if _, err := os.Stat(a); err == nil {
		return false
	}
	// Data named by prefix (builtin:NAME, wordnet:DIR) opens in the app.
	return !strings.HasPrefix(a, "builtin:") && !strings.HasPrefix(a, "wordnet:")
}

func isHelp(a string) bool { return a == "help" || a == "-h" || a == "--help" || a == "-help" }
