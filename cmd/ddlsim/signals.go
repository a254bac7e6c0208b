package main

import (
	"context"
	"fmt"
	"io"
	"os"
	"os/signal"
	"syscall"
)

// Interrupting a command that runs many simulations (compare, sweep, validate): the first
// SIGINT or SIGTERM cancels the context the runs are given — each in-flight run stops within a
// tenth of a simulated second (runner.Options.Context), its partial outputs are removed, and
// its point is left for --resume — and the command returns; a second signal exits at once.

// exitNow ends the process on a second signal (a variable so a test can watch it).
var exitNow = os.Exit

// interruptible returns a context cancelled by the first SIGINT/SIGTERM, and the function
// that stops watching for signals. stderr gets one line per signal.
func interruptible(stderr io.Writer) (context.Context, func()) {
	if stderr == nil {
		stderr = io.Discard
	}
	ctx, cancel := context.WithCancel(context.Background())
	ch := make(chan os.Signal, 2)
	signal.Notify(ch, os.Interrupt, syscall.SIGTERM)
	done := make(chan struct{})
	go func() {
		select {
		case s := <-ch:
			fmt.Fprintf(stderr, "ddlsim: %s: stopping the runs in flight (finished points are kept; finish with --resume); %s again exits at once\n", sigName(s), sigName(s))
			cancel()
		case <-done:
			return
		}
		select {
		case s := <-ch:
			fmt.Fprintf(stderr, "ddlsim: %s again: exiting now\n", sigName(s))
			exitNow(128 + sigNumber(s))
		case <-done:
		}
	}()
	return ctx, func() {
		signal.Stop(ch)
		close(done)
		cancel()
	}
}

func sigName(s os.Signal) string {
	if s == os.Interrupt {
		return "interrupt (SIGINT)"
	}
	return "terminated (SIGTERM)"
}

func sigNumber(s os.Signal) int {
	if n, ok := s.(syscall.Signal); ok {
		return int(n)
	}
	return 2
}
