package main

import (
	"errors"
	"flag"
	"fmt"
	"runtime"

	"gopkg.in/yaml.v3"

	"github.com/ddlsim/ddlsim/internal/sweep"
	"github.com/ddlsim/ddlsim/model/config"
	"github.com/ddlsim/ddlsim/model/runner"
)

var checkCmd = &command{
	name:     "check",
	args:     "FILE...",
	synopsis: "validate scenario files and sweep specs without running them",
	usage: `Loads each scenario exactly as run would (hardware profile, overrides, defaults,
validation) and prints "ok: FILE" for each good one. A sweep spec (a file with a top-level
base: or axes: key, docs/sweeps.md) is checked as sweep would before running: the spec, its
base scenario with the overrides, and every point's scenario. Every problem in every file is
printed to stderr as FILE:LINE:COL: PATH: message (a bad swept value at its place in the
spec, with the points it breaks), and the exit status is 2 if there was any.

For each good file check also prints the estimate of what a run costs — memory, statements
and kernel events (docs/limits.md) — and fails, like run, compare and sweep would, when the
runs that would be in memory at once (one for a scenario, --jobs for a sweep) need more
than the machine's memory or --max-memory. Warnings about legal but suspicious values
(docs/scenarios.md, "Warnings") go to stderr and do not change the exit status.`,
	setup: func(fs *flag.FlagSet) func(e *env, args []string) error {
		var sets []string
		var mem int64
		fs.Var(setList{&sets}, "set", "override a field, `path=value` (repeatable), checked like the file's own values; for a sweep spec, of its base scenario")
		fs.Var(policyFlag{&sets}, "policy", "buffer-pool policy `NAME` (shorthand for --set policy=NAME), checked as run would take it")
		fs.Var(sloFlag{&sets}, "slo", sloUsage)
		jobs := fs.Int("jobs", runtime.NumCPU(), "for a sweep spec: simulations that would run at once")
		addMaxMemory(fs, &mem)
		return func(e *env, args []string) error {
			if len(args) == 0 {
				return usagef("check needs at least one scenario or sweep spec file")
			}
			var errs []error
			for _, path := range args {
				if isSweepSpec(path) {
					plan, err := sweep.CheckSpec(path, sets)
					if err != nil {
						errs = append(errs, &inputError{err})
						continue
					}
					printWarnings(e.stderr, plan.Warnings)
					at := min(max(*jobs, 1), len(plan.Points)*len(plan.Seeds))
					if err := admit(plan.Peak, at, mem); err != nil {
						errs = append(errs, fmt.Errorf("%s: %w", path, err))
						continue
					}
					fmt.Fprintf(e.stdout, "ok: %s (sweep spec: %s × %s)\n  largest run (point %d): %s\n", path,
						plural(len(plan.Points), "point"), plural(len(plan.Seeds), "seed"), plan.PeakPoint, plan.Peak)
					continue
				}
				sc, err := config.LoadWith(path, sets, nil)
				if err != nil {
					errs = append(errs, &inputError{err})
					continue
				}
				printWarnings(e.stderr, sc.Warnings)
				est := runner.EstimateRun(sc)
				if err := admit(est, 1, mem); err != nil {
					errs = append(errs, fmt.Errorf("%s: %w", path, err))
					continue
				}
				fmt.Fprintf(e.stdout, "ok: %s\n  estimate: %s\n", path, est)
			}
			return errors.Join(errs...)
		}
	},
}

// isSweepSpec reports whether path is a YAML mapping with a top-level base or axes key, which
// no scenario has. A file that does not parse is left to the scenario loader to report.
func isSweepSpec(path string) bool {
	data, err := config.ReadInput(config.Locate(path))
	if err != nil {
		return false
	}
	var doc yaml.Node
	if yaml.Unmarshal(data, &doc) != nil || len(doc.Content) == 0 || doc.Content[0].Kind != yaml.MappingNode {
		return false
	}
	root := doc.Content[0].Content
	for i := 0; i+1 < len(root); i += 2 {
		if k := root[i].Value; k == "base" || k == "axes" {
			return true
		}
	}
	return false
}

func plural(n int, what string) string {
	if n == 1 {
		return "1 " + what
	}
	return fmt.Sprintf("%d %ss", n, what)
}
