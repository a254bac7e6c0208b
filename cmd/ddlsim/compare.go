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
		fs.Var(sloFlag{&sets}, "slo", sloUsage)
		var vary []sweep.Vary
		fs.Var(varyFlag{&vary}, "vary", "compare settings instead of policies: `KEY=V1,V2,...` (a --set path and its values; repeatable: the grid of all); runs under the scenario's own policy unless --policies is given, and ranks the settings, least harm first")
		return func(e *env, pos []string) error {
			policiesGiven := false
			fs.Visit(func(f *flag.Flag) { policiesGiven = policiesGiven || f.Name == "policies" })
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
			var plan *sweep.Plan
			if len(vary) > 0 {
				var pols []string
				if policiesGiven {
					pols = splitPolicies(*policies)
				}
				plan, err = sweep.PlanVary(base, vary, pols, *seeds, seed)
			} else {
				plan, err = sweep.PlanCompare(base, splitPolicies(*policies), *seeds, seed)
			}
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
			what := "policies"
			if len(vary) > 0 {
				what = "settings"
			}
			fmt.Fprintf(e.stdout, "compare %s: %d %s × %d seeds (from %d), %d jobs → %s\n",
				config, len(plan.Points), what, len(plan.Seeds), plan.Seeds[0], *jobs, *out)
			tr := printTrust(e.stdout, base)
			command := wfCommand("compare")
			obs := &observedRuns{base: base}
			rep, err := wfExecute(plan, sweep.Options{Dir: *out, Jobs: *jobs, Resume: *resume, SaveSeries: true,
				Progress: e.stderr, Command: command, Run: obs.wrap(base.RunFunc())})
			if err != nil {
				return err
			}
			obs.report(e.stderr, tr)
			if err := writeTrust(*out, tr); err != nil {
				return err
			}
			fmt.Fprintln(e.stdout)
			groups := output.GroupByPoint(rep.Rows)
			if len(vary) > 0 {
				h := output.HarmOf(rep.Rows)
				groups = output.Rank(groups, h)
				fmt.Fprintf(e.stdout, "least harm first, by %s (%s); mean ± 95%% CI over the seeds:\n", h.Name, h.About)
				if err := output.PrintKeyTable(e.stdout, groups, h, true); err != nil {
					return err
				}
				fmt.Fprintln(e.stdout)
			}
			if err := output.Tabulate(groups).Print(e.stdout); err != nil {
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

// varyFlag collects --vary KEY=V1,V2,...: values split on commas outside braces, as
// --policies is.
type varyFlag struct{ vary *[]sweep.Vary }

func (v varyFlag) String() string { return "" }

func (v varyFlag) Set(s string) error {
	key, vals, ok := strings.Cut(s, "=")
	key = strings.TrimSpace(key)
	if !ok || key == "" {
		return usagef("--vary wants KEY=V1,V2,... (a --set path and its values), got %q", s)
	}
	list := splitPolicies(vals)
	if len(list) == 0 {
		return usagef("--vary %s: name at least one value", key)
	}
	*v.vary = append(*v.vary, sweep.Vary{Path: key, Values: list})
	return nil
}
