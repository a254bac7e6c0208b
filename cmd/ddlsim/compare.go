package main

import (
	"flag"
	"fmt"
	"github.com/ddlsim/ddlsim/internal/output"
	"path/filepath"
	"runtime"
	"strings"

	"github.com/ddlsim/ddlsim/internal/sweep"
)

var compareCmd = &command{
	name:     "compare",
	args:     "SCENARIO",
	synopsis: "run a scenario under several policies and seeds; mean ± 95% CI side by side",
	usage: `Runs SCENARIO under each policy of --policies with --seeds seeds each (seed, seed+1, ...;
the same seeds for every policy), in parallel on --jobs cores, and prints the key metrics
side by side as mean ± 95% confidence interval (Student t over the seeds), DDL durations
and phases included. Writes to --out: results.csv (one row per run), results.jsonl, every
run's per-interval series in series/, and with --plot / --report the figures and an HTML
report. Output does not depend on --jobs (docs/compare.md).`,
	setup: func(fs *flag.FlagSet) func(e *env, args []string) error {
		policies := fs.String("policies", "fullscan,lazy,indexed", "comma-separated `policies`; one with parameters is written as in YAML, e.g. '{name: indexed, batch: 256}'")
		seeds := fs.Int("seeds", 5, "runs per policy, `K`")
		var seed *uint64
		fs.Var(seedFlag{&seed}, "seed", "first seed `N` (default: the scenario's)")
		jobs := fs.Int("jobs", runtime.NumCPU(), "simulations run at once")
		out := fs.String("out", "", "results `DIR` (default out/compare-<scenario name>)")
		resume := fs.Bool("resume", false, "finish an interrupted compare in --out")
		doPlot := fs.Bool("plot", false, "draw figures into <out>/plots")
		doReport := fs.Bool("report", false, "write <out>/report.html (implies --plot)")
		var sets []string
		var mem int64
		addMaxMemory(fs, &mem)
		fs.Var(setList{&sets}, "set", "override a scenario field for every run, `path=value` (repeatable)")
		return func(e *env, pos []string) error {
			if len(pos) != 1 {
				return usagef("compare takes exactly one scenario file, got %d arguments", len(pos))
			}
			if *seeds < 1 {
				return usagef("--seeds: need at least 1")
			}
			config := pos[0]
			base, err := sweep.LoadBase(config, sets)
			if err != nil {
				return &inputError{err}
			}
			plan, err := sweep.PlanCompare(base, splitPolicies(*policies), *seeds, seed)
			if err != nil {
				return &inputError{err}
			}
			printWarnings(e.stderr, plan.Warnings)
			if err := admit(plan.Peak, min(max(*jobs, 1), len(plan.Points)*len(plan.Seeds)), mem); err != nil {
				return err
			}
			if *out == "" {
				*out = filepath.Join("out", "compare-"+strings.TrimSuffix(filepath.Base(config), filepath.Ext(config)))
			}
			fmt.Fprintf(e.stdout, "compare %s: %d policies × %d seeds (from %d), %d jobs → %s\n",
				config, len(plan.Points), len(plan.Seeds), plan.Seeds[0], *jobs, *out)
			tr := printTrust(e.stdout, base)
			command := wfCommand("compare")
			rep, err := wfExecute(plan, sweep.Options{Dir: *out, Jobs: *jobs, Resume: *resume, SaveSeries: true,
				Progress: e.stderr, Command: command, Run: base.RunFunc()})
			if err != nil {
				return err
			}
			if err := writeTrust(*out, tr); err != nil {
				return err
			}
			fmt.Fprintln(e.stdout)
			if err := output.Tabulate(output.GroupByPoint(rep.Rows)).Print(e.stdout); err != nil {
				return err
			}
			if len(plan.Seeds) == 1 {
				fmt.Fprintf(e.stdout, "\none seed: each value is one run's (no confidence interval; --seeds 5 gives one); one row per run in %s\n",
					filepath.Join(*out, output.CSVFile))
			} else {
				fmt.Fprintf(e.stdout, "\nmean ± 95%% CI half-width over %d seeds; one row per run in %s\n",
					len(plan.Seeds), filepath.Join(*out, output.CSVFile))
			}
			output.PrintUnfinished(e.stdout, rep.Rows)
			return wfFigures(*out, *doPlot, *doReport, command, e.stdout)
		}
	},
}

// splitPolicies splits on commas outside braces, so "fullscan,{name: indexed, batch: 256}"
// is two policies.
func splitPolicies(s string) []string {
	var out []string
	depth, start := 0, 0
	for i, r := range s {
		switch r {
		case '{', '[':
			depth++
		case '}', ']':
			depth--
		case ',':
			if depth == 0 {
				if p := strings.TrimSpace(s[start:i]); p != "" {
					out = append(out, p)
				}
				start = i + 1
			}
		}
	}
	if p := strings.TrimSpace(s[start:]); p != "" {
		out = append(out, p)
	}
	return out
}
