// Package cli is Burescope's headless command line: the same binary as the
// desktop app, for scripts and benchmarks. Each command lives in a file of
// its own and registers itself in init with Register.
//
// Contract for every command: flags parsed with the standard flag package,
// errors returned (never panics, never os.Exit inside a command), machine
// readable results on stdout (one JSON line per result where a script reads it),
// progress and diagnostics on stderr.
package cli

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"sort"
)

// Env is what a command may touch: its arguments (without the command name)
// and its output streams.
type Env struct {
	Args   []string
	Stdout io.Writer
	Stderr io.Writer
}

// Command is one subcommand of the burescope binary.
type Command struct {
	Name    string              // as typed: "fit", "bench", ...
	Summary string              // one line for the usage listing
	Run     func(env Env) error // does the work; returns errors, never exits
}

var commands = map[string]Command{}

// Register adds a command; it is called from init functions in this package.
func Register(c Command) {
	if _, dup := commands[c.Name]; dup {
		panic("cli: duplicate command " + c.Name)
	}
	commands[c.Name] = c
}

// Has reports whether name is a registered command.
func Has(name string) bool {
	_, ok := commands[name]
	return ok
}

// ErrUsage is returned when the command line cannot be understood; the
// message has already been printed.
var ErrUsage = errors.New("usage error")

// Main runs the command named by args[0] and returns the process exit code:
// 0 on success, 1 on failure (error printed to stderr), 2 on a usage error.
func Main(args []string, stdout, stderr io.Writer) int {
	if len(args) == 0 || args[0] == "help" || args[0] == "-h" || args[0] == "--help" {
		Usage(stdout)
		return 0
	}
	c, ok := commands[args[0]]
	if !ok {
		fmt.Fprintf(stderr, "burescope: unknown command %q\n\n", args[0])
		Usage(stderr)
		return 2
	}
	out := &stdoutWriter{w: stdout}
	err := c.Run(Env{Args: args[1:], Stdout: out, Stderr: stderr})
	if err == nil && out.err != nil {
		err = fmt.Errorf("writing the results to stdout: %w", out.err)
	}
	switch {
	case err == nil:
		return 0
	case errors.Is(err, flag.ErrHelp):
		return 0
	case errors.Is(err, ErrUsage):
		return 2
	default:
		fmt.Fprintf(stderr, "burescope %s: %v\n", c.Name, err)
		return 1
	}
}

// Usage prints the list of commands.
func Usage(w io.Writer) {
	fmt.Fprintln(w, "usage: burescope [command] [flags]")
	fmt.Fprintln(w, "\nWith no command, burescope opens the desktop app on the built-in PISA 2015 data.")
	fmt.Fprintln(w, "\nCommands:")
	names := make([]string, 0, len(commands))
	for n := range commands {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, n := range names {
		fmt.Fprintf(w, "  %-16s %s\n", n, commands[n].Summary)
	}
	fmt.Fprintln(w, "\nRun 'burescope COMMAND -h' for a command's flags.")
}

// NewFlagSet returns a flag set for a command that writes its usage to
// env.Stderr and returns errors instead of exiting.
func NewFlagSet(env Env, name, usage string) *flag.FlagSet {
	fs := flag.NewFlagSet(name, flag.ContinueOnError)
	fs.SetOutput(env.Stderr)
	fs.Usage = func() {
		fmt.Fprintf(env.Stderr, "usage: burescope %s %s\n", name, usage)
		fs.PrintDefaults()
	}
	return fs
}

// ParseInterspersed parses flags that may come before or after positional
// arguments (burescope fit INPUT --dim 3) and returns the positionals.
func ParseInterspersed(fs *flag.FlagSet, args []string) ([]string, error) {
	var pos []string
	for {
		if err := fs.Parse(args); err != nil {
			if errors.Is(err, flag.ErrHelp) {
				return nil, err
			}
			return nil, ErrUsage
		}
		args = fs.Args()
		if len(args) == 0 {
			return pos, nil
		}
		if args[0] == "--" {
			return append(pos, args[1:]...), nil
		}
		pos = append(pos, args[0])
		args = args[1:]
	}
}
