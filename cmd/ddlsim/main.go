package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"io/fs"
	"os"
	"strings"
	"time"

	"golang.org/x/term"

	"github.com/ddlsim/ddlsim/internal/output"
	"github.com/ddlsim/ddlsim/internal/sweep"
	"github.com/ddlsim/ddlsim/model/config"
)

func main() { os.Exit(exitCode(run(os.Args[1:], os.Stdout, os.Stderr))) }

// Exit codes (docs/cli.md).
const (
	exitOK      = 0
	exitFailure = 1 // the run itself failed
	exitInput   = 2 // bad scenario, bad override, unknown flag or command, missing file
)

// usageError is a mistake on the command line.
type usageError struct{ msg string }

func (e *usageError) Error() string { return e.msg }

func usagef(format string, args ...any) error { return &usageError{fmt.Sprintf(format, args...)} }

// inputError wraps a failure to read or accept an input file, which is the user's to fix
// (exit 2) even when the underlying error is an I/O error.
type inputError struct{ err error }

func (e *inputError) Error() string { return e.err.Error() }
func (e *inputError) Unwrap() error { return e.err }

func exitCode(err error) int {
	var (
		ue *usageError
		ie *inputError
		ce config.Errors
		fe *config.FieldError
		re *sweep.RefusedError
		de *sweep.DirError
		cr *crashError
		oe *output.ReadError
		se *output.SchemaError
	)
	switch {
	case err == nil, errors.Is(err, flag.ErrHelp):
		return exitOK
	case errors.As(err, &cr):
		return exitFailure // an internal error, even when it wraps an input-looking one
	case errors.As(err, &ue), errors.As(err, &ie), errors.As(err, &ce), errors.As(err, &fe), errors.Is(err, fs.ErrNotExist),
		errors.As(err, &re), errors.As(err, &de), errors.As(err, &oe), errors.As(err, &se):
		return exitInput
	}
	return exitFailure
}

// env is what a command may touch: its output streams, and the wall clock and terminal
// check, which only the progress display uses (tests replace them).
type env struct {
	stdout, stderr io.Writer
	stderrTTY      bool
	now            func() time.Time
	// tick, when set, starts a ticker for the progress lines (a second apart) and returns
	// its channel and its stop.
	tick     func() (<-chan time.Time, func())
	commands []*command
}

// run is the whole CLI: tests call it directly. Errors are printed to stderr here, one
// problem per line, and also returned so main can choose the exit code.
func run(args []string, stdout, stderr io.Writer) error {
	e := &env{stdout: stdout, stderr: stderr, now: time.Now, tick: secondTicker, commands: commands}
	if f, ok := stderr.(*os.File); ok {
		e.stderrTTY = term.IsTerminal(int(f.Fd()))
	}
	err := guard(args, func() error { return e.dispatch(args) })
	if err != nil && !errors.Is(err, flag.ErrHelp) {
		printErr(stderr, err)
	}
	return err
}

func secondTicker() (<-chan time.Time, func()) {
	t := time.NewTicker(time.Second)
	return t.C, t.Stop
}

func (e *env) dispatch(args []string) error {
	if len(args) == 0 {
		e.printOverview(e.stderr)
		return usagef("no command given")
	}
	name := args[0]
	switch name {
	case "-h", "-help", "--help":
		e.printOverview(e.stdout)
		return nil
	case "-version", "--version":
		name = "version"
	}
	c := e.lookup(name)
	if c == nil {
		return usagef("unknown command %q%s; run 'ddlsim help' for the list", name, e.didYouMean(name))
	}
	fs := flag.NewFlagSet("ddlsim "+c.name, flag.ContinueOnError)
	fs.SetOutput(io.Discard) // usage is printed by us, in full, to stdout
	body := c.setup(fs)
	pos, err := parseInterspersed(fs, args[1:])
	if errors.Is(err, flag.ErrHelp) {
		c.printUsage(e.stdout, fs)
		return err
	}
	if err != nil {
		return usagef("%s: %v; run 'ddlsim help %s'", c.name, flagError(fs, err), c.name)
	}
	return body(e, pos)
}

// didYouMean is " (did you mean NAME?)" for the command closest to a mistyped one, or "".
func (e *env) didYouMean(name string) string {
	var names []string
	for _, c := range e.commands {
		names = append(names, c.name)
	}
	if s := config.Suggest(name, names); s != "" {
		return fmt.Sprintf(" (did you mean %s?)", s)
	}
	return ""
}

// flagError rewrites the flag package's errors in the --flag spelling the help uses, with the
// closest flag for an unknown one: "unknown flag --sed (did you mean --seed?)".
func flagError(fs *flag.FlagSet, err error) error {
	msg := err.Error()
	if name, ok := strings.CutPrefix(msg, "flag provided but not defined: "); ok {
		name = strings.TrimLeft(name, "-")
		var names []string
		fs.VisitAll(func(f *flag.Flag) { names = append(names, f.Name) })
		if s := config.Suggest(name, names); s != "" {
			return fmt.Errorf("unknown flag --%s (did you mean --%s?)", name, s)
		}
		return fmt.Errorf("unknown flag --%s (flags: --%s)", name, strings.Join(names, ", --"))
	}
	if rest, ok := strings.CutPrefix(msg, "flag needs an argument: -"); ok {
		return fmt.Errorf("flag --%s needs a value", rest)
	}
	if strings.HasPrefix(msg, "invalid value ") || strings.HasPrefix(msg, "invalid boolean value ") {
		msg = strings.Replace(msg, " for flag -", " for flag --", 1)
		return errors.New(strings.Replace(msg, " for -", " for --", 1))
	}
	return err
}

func (e *env) lookup(name string) *command {
	for _, c := range e.commands {
		if c.name == name {
			return c
		}
	}
	return nil
}

// parseInterspersed lets flags follow positional arguments (`ddlsim run x.yaml --seed 3`),
// which the flag package alone stops at; everything after "--" is positional.
func parseInterspersed(fs *flag.FlagSet, args []string) ([]string, error) {
	var pos []string
	for {
		if err := fs.Parse(args); err != nil {
			return nil, err
		}
		rest := fs.Args()
		consumed := len(args) - len(rest)
		if consumed > 0 && args[consumed-1] == "--" {
			return append(pos, rest...), nil
		}
		if len(rest) == 0 {
			return pos, nil
		}
		pos = append(pos, rest[0])
		args = rest[1:]
	}
}

// printErr writes one problem per line: scenario errors as file:line:col lines (which
// editors link), anything else prefixed with the program name.
func printErr(w io.Writer, err error) {
	var ce config.Errors
	if errors.As(err, &ce) && err.Error() == ce.Error() {
		fmt.Fprintln(w, ce.Error())
		return
	}
	var ie *inputError
	if errors.As(err, &ie) && err == error(ie) {
		printErr(w, ie.err)
		return
	}
	if j, ok := err.(interface{ Unwrap() []error }); ok {
		for _, sub := range j.Unwrap() {
			printErr(w, sub)
		}
		return
	}
	for _, line := range strings.Split(err.Error(), "\n") {
		fmt.Fprintln(w, "ddlsim: "+line)
	}
}
