// Package app wires jigbench together: it parses arguments, dispatches the
// headless subcommands to core packages and starts the desktop app. It holds
// no maths and no file formats.
package app

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"runtime"
	"sort"
	"strings"
)

// Exit codes fixed by the CLI contract.
const (
	exitOK    = 0
	exitFail  = 1
	exitUsage = 2
)

// env is what a subcommand may touch besides its arguments, so tests can run
// commands in-process and read what they printed.
type env struct {
	stdout io.Writer
	stderr io.Writer
	// progress is true when stderr is a terminal, so progress lines are wanted.
	progress bool
}

// command is one headless subcommand.
type command struct {
	name    string
	summary string // one line for `jigbench help`
	usage   string // the full usage text for `jigbench help NAME`
	run     func(e *env, args []string) error
}

var commands = map[string]*command{}

func register(c *command) { commands[c.name] = c }

// usageError marks a mistake in the command line (exit 2).
type usageError struct{ msg string }

func (u *usageError) Error() string { return u.msg }

func usagef(format string, a ...any) error { return &usageError{fmt.Sprintf(format, a...)} }

// Main runs jigbench with args (without the program name) and returns the
// process exit code.
func Main(args []string) int {
	if len(args) == 0 {
		if msg := noDisplay(runtime.GOOS, os.Getenv); msg != "" {
			fmt.Fprintln(os.Stderr, "jigbench: "+msg)
			return exitFail
		}
		return runGUI()
	}
	e := &env{stdout: os.Stdout, stderr: os.Stderr, progress: isTerminal(os.Stderr)}
	return run(e, args)
}

// noDisplay says why the app cannot open a window on a Unix desktop whose
// environment (getenv) names no X11 or Wayland display — over ssh, in a
// container — or returns "": without one Fyne's GLFW driver panics with a
// stack trace instead of an error.
func noDisplay(goos string, getenv func(string) string) string {
	switch goos {
	case "windows", "darwin", "ios", "android", "js", "wasip1":
		return ""
	}
	if getenv("DISPLAY") != "" || getenv("WAYLAND_DISPLAY") != "" {
		return ""
	}
	return "no display to open the app on (DISPLAY and WAYLAND_DISPLAY are unset); the commands of 'jigbench help' run without one"
}

// run dispatches one command line and turns its error into an exit code and
// exactly one "jigbench: …" line on stderr.
func run(e *env, args []string) int {
	name := args[0]
	switch name {
	case "-h", "--help", "-help":
		name = "help"
	case "-v", "--version":
		name = "version"
	}
	c, ok := commands[name]
	if !ok {
		fmt.Fprintf(e.stderr, "jigbench: unknown command %q; run 'jigbench help' for the list\n", name)
		return exitUsage
	}
	err := c.run(e, args[1:])
	switch {
	case err == nil:
		return exitOK
	case errors.Is(err, flag.ErrHelp):
		fmt.Fprint(e.stdout, c.usage)
		return exitOK
	}
	var u *usageError
	if errors.As(err, &u) {
		fmt.Fprintf(e.stderr, "jigbench: %s: %s; see 'jigbench help %s'\n", c.name, oneLine(u.msg), c.name)
		return exitUsage
	}
	fmt.Fprintf(e.stderr, "jigbench: %s: %s\n", c.name, oneLine(err.Error()))
	return exitFail
}

// oneLine keeps an error to the single line the CLI contract promises.
func oneLine(s string) string {
	s = strings.TrimSpace(s)
	return strings.Join(strings.Fields(strings.ReplaceAll(s, "\n", " ")), " ")
}

// newFlags returns a flag set that reports problems as usage errors instead of
// printing and exiting on its own.
func newFlags(name string) *flag.FlagSet {
	fs := flag.NewFlagSet(name, flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	return fs
}

// parseFlags parses args and rejects stray positional arguments unless
// positional is true.
func parseFlags(fs *flag.FlagSet, args []string, positional bool) error {
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return err
		}
		return usagef("%v", err)
	}
	if !positional && fs.NArg() > 0 {
		return usagef("unexpected argument %q", fs.Arg(0))
	}
	return nil
}

func init() {
	register(&command{
		name:    "help",
		summary: "show the commands, or one command's usage",
		usage:   "usage: jigbench help [command]\n",
		run:     runHelp,
	})
}

func runHelp(e *env, args []string) error {
	if len(args) > 1 {
		return usagef("help takes at most one command name")
	}
	if len(args) == 1 {
		c, ok := commands[args[0]]
		if !ok {
			return usagef("unknown command %q", args[0])
		}
		fmt.Fprint(e.stdout, c.usage)
		return nil
	}
	names := make([]string, 0, len(commands))
	for n := range commands {
		names = append(names, n)
	}
	sort.Strings(names)
	fmt.Fprint(e.stdout, "jigbench — a workbench for the JigShape and ViGoR-Bench benchmarks.\n\n")
	fmt.Fprint(e.stdout, "usage: jigbench                 open the desktop app\n       jigbench COMMAND [flags]  run headless\n\ncommands:\n")
	for _, n := range names {
		fmt.Fprintf(e.stdout, "  %-11s %s\n", n, commands[n].summary)
	}
	fmt.Fprint(e.stdout, "\nRun 'jigbench help COMMAND' for a command's flags.\n")
	return nil
}

func isTerminal(f *os.File) bool {
	fi, err := f.Stat()
	return err == nil && fi.Mode()&os.ModeCharDevice != 0
}
