package main

import (
	"errors"
	"fmt"
	"github.com/ddlsim/ddlsim/internal/output"
	"os"
	"runtime/debug"
	"strings"
	"time"

	"github.com/ddlsim/ddlsim/model/config"
	"github.com/ddlsim/ddlsim/model/runner"
)

// A panic is a bug report: the CLI turns an internal failure — a *runner.PanicError from a
// run, or a panic anywhere else in the command — into exit status 1, a short message with the
// seed, the configuration hash and the command that reproduces it, and a file with all of
// that and the stack, which is what a bug report needs.

// crashDir is where crash reports are written (a variable so tests can redirect it).
var crashDir = os.TempDir

// reportCrash writes the crash file for pe and returns the error to print.
func reportCrash(pe *runner.PanicError, args []string) error {
	var b strings.Builder
	fmt.Fprintf(&b, "ddlsim crash report: an internal error (a bug in ddlsim, not in the input).\n\n")
	fmt.Fprintf(&b, "version:        %s\n", output.Version)
	fmt.Fprintf(&b, "command:        %s\n", quoteArgs(append([]string{"ddlsim"}, args...)))
	if pe.Reproduce != nil {
		fmt.Fprintf(&b, "reproduce:      %s\n", quoteArgs(pe.Reproduce))
	}
	fmt.Fprintf(&b, "seed:           %d\n", pe.Seed)
	if pe.ConfigHash != "" {
		fmt.Fprintf(&b, "config hash:    %s\n", pe.ConfigHash)
	}
	fmt.Fprintf(&b, "simulated time: %s\n", config.Duration(pe.SimTime))
	if pe.Proc != "" {
		fmt.Fprintf(&b, "thread:         %s\n", pe.Proc)
	}
	fmt.Fprintf(&b, "panic:          %v\n\nstack:\n%s\n", pe.Value, pe.Stack)

	msg := fmt.Sprintf("%v\nseed=%d config=%s", pe, pe.Seed, orNone(pe.ConfigHash))
	if pe.Reproduce != nil {
		msg += "\nreproduce: " + quoteArgs(pe.Reproduce)
	}
	name, err := writeCrash(b.String())
	if err != nil {
		// No file to point to (TMPDIR not writable, disk full): the report itself, stack and
		// all, goes to stderr, which is then what a bug report needs.
		return &crashError{msg: msg + "\nthe crash report could not be written (" + err.Error() + "); here it is:\n\n" +
			strings.TrimRight(b.String(), "\n") + "\n\nplease report it with the text above"}
	}
	return &crashError{msg: msg + "\ncrash report with the stack: " + name + "\nplease report it with that file"}
}

// writeCrash writes a crash report to a new file in crashDir and returns its name.
func writeCrash(text string) (string, error) {
	f, err := os.CreateTemp(crashDir(), fmt.Sprintf("ddlsim-crash-%s-%d-*.txt", time.Now().UTC().Format("20060102T150405Z"), os.Getpid()))
	if err != nil {
		return "", err
	}
	defer f.Close()
	if err := f.Chmod(0o644); err != nil {
		return "", err
	}
	if _, err := f.WriteString(text); err != nil {
		return "", err
	}
	return f.Name(), f.Close()
}

// crashError is an internal failure already reported (exit status 1).
type crashError struct{ msg string }

func (e *crashError) Error() string { return e.msg }

func orNone(s string) string {
	if s == "" {
		return "(not loaded)"
	}
	return s
}

func quoteArgs(args []string) string {
	q := make([]string, len(args))
	for i, a := range args {
		q[i] = shellQuote(a)
	}
	return strings.Join(q, " ")
}

// guard runs the command, turning a panic in it, or a *runner.PanicError it returns, into a
// crash report.
func guard(args []string, body func() error) (err error) {
	defer func() {
		if r := recover(); r != nil {
			err = reportCrash(runner.NewPanicError(r, debug.Stack()), args)
		}
	}()
	err = body()
	var pe *runner.PanicError
	if errors.As(err, &pe) {
		return reportCrash(pe, args)
	}
	return err
}
