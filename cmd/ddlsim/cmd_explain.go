package main

import (
	"flag"
	"fmt"
	"io"
	"strings"

	"github.com/ddlsim/ddlsim/internal/explain"
	"github.com/ddlsim/ddlsim/model/config"
	"github.com/ddlsim/ddlsim/model/runner"
)

var explainCmd = &command{
	name:     "explain",
	args:     "SCENARIO",
	synopsis: "run a scenario once and say why each DDL statement took that long and what it did to the traffic",
	usage: `Runs SCENARIO once (as run would, without its interval lines) and prints one paragraph per
DDL statement, generated from the run: the phases that took the time and what each waits on
(CPU, the data device, the flush of the new index's pages, the metadata lock), the lock and
mutex waits, the cores' and the data file's load during it against before it, and what it did
to the transactions (with latency harm: in which phases the SLO was broken).

With --sensitivity it then re-runs the scenario with the three settings most relevant to where
the first statement's time went at ×0.5 and ×1.5 of their value, one at a time, same seed, and
prints what moved (docs/cli.md, explain).`,
	setup: func(fs *flag.FlagSet) func(e *env, args []string) error {
		var sets []string
		var seed *uint64
		var mem int64
		fs.Var(seedFlag{&seed}, "seed", "random seed `N`, replacing the scenario's seed")
		fs.Var(setList{&sets}, "set", "override a field, `path=value` (repeatable; later wins)")
		fs.Var(policyFlag{&sets}, "policy", "buffer-pool policy `NAME` (shorthand for --set policy=NAME)")
		fs.Var(sloFlag{&sets}, "slo", sloUsage)
		sens := fs.Bool("sensitivity", false, "also re-run with the 3 most relevant settings at ×0.5 and ×1.5, one at a time (6 more runs)")
		addMaxMemory(fs, &mem)
		return func(e *env, args []string) error {
			if len(args) != 1 {
				return usagef("explain takes exactly one scenario file, got %d arguments", len(args))
			}
			path := args[0]
			sc, err := config.LoadWith(path, sets, seed)
			if err != nil {
				return &inputError{err}
			}
			printWarnings(e.stderr, sc.Warnings)
			if err := admit(runner.EstimateRun(sc), 1, mem); err != nil {
				return err
			}
			res, err := runner.Run(sc, runner.Options{})
			if err != nil {
				return fmt.Errorf("explain %s: %w", path, err)
			}
			w := e.stdout
			fmt.Fprintf(w, "explain %s (seed %d, policy %s):\n", path, sc.Seed, sc.Policy)
			if len(res.DDL) == 0 {
				fmt.Fprintln(w, "\nno DDL statement ran: nothing to explain")
				return nil
			}
			for _, p := range explain.Paragraphs(res) {
				fmt.Fprintln(w)
				wrap(w, p, 100)
			}
			if !*sens {
				return nil
			}
			settings := explain.Relevant(sc, res.DDL[0], 3)
			fmt.Fprintf(w, "\nsensitivity of ddl0 (%s), one setting at a time at ×0.5 and ×1.5, seed %d:\n", res.DDL[0].Op, sc.Seed)
			seedNow := sc.Seed
			load := func(extra []string) (*config.Scenario, error) {
				return config.LoadWith(path, append(append([]string(nil), sets...), extra...), &seedNow)
			}
			for _, l := range explain.Sensitivity(load, res.DDL[0], 0, settings) {
				fmt.Fprintf(w, "  %s\n", l)
			}
			return nil
		}
	},
}

// wrap prints a paragraph in lines of at most width characters, breaking at spaces.
func wrap(w io.Writer, p string, width int) {
	line := ""
	for _, word := range strings.Fields(p) {
		if line != "" && len(line)+1+len(word) > width {
			fmt.Fprintln(w, line)
			line = ""
		}
		if line != "" {
			line += " "
		}
		line += word
	}
	if line != "" {
		fmt.Fprintln(w, line)
	}
}
