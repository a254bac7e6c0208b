package main

import (
	"errors"
	"flag"
	"fmt"
	"github.com/ddlsim/ddlsim/internal/output"
	"io"
	"os"
	"path/filepath"
	"runtime/pprof"
	"strconv"
	"strings"

	"github.com/ddlsim/ddlsim/internal/plot"
	"github.com/ddlsim/ddlsim/internal/report"
	"github.com/ddlsim/ddlsim/internal/trust"
	"github.com/ddlsim/ddlsim/model/config"
	"github.com/ddlsim/ddlsim/model/metrics"
	"github.com/ddlsim/ddlsim/model/runner"
)

var runCmd = &command{
	name:     "run",
	args:     "SCENARIO",
	synopsis: "simulate one scenario and print sysbench-style interval lines and a summary",
	usage: `Loads SCENARIO (see docs/scenarios.md), applies --set overrides, simulates it and prints:
a header with the version, seed and configuration hash, the command that reproduces the run,
one line per report interval in sysbench --report-interval style, a summary table and each
DDL statement's result. Same scenario, overrides and seed give byte-identical output.

--set takes a YAML path and a value parsed exactly like the file's own values, e.g.
  --set mysql.innodb_buffer_pool_size=24GiB
  --set workload[0].sysbench.threads=64
  --set 'policy={name: indexed, batch: 256}'
  --set hardware.cores=16          (edits the resolved hardware profile)
  --set hardware=profiles/80c-256g.yaml
Overrides apply before defaults and validation, so a bad value is reported like a bad field.

With --out DIR the results are also written to DIR (series.csv, summary.json, ddl.csv,
config.yaml; see docs/output.md), atomically: DIR either holds a complete result or is left
as it was. Then --plot draws the throughput with each DDL statement's interval shaded and its
phases marked into DIR/plots (PNG and SVG), and --report writes DIR/report.html (summary,
DDL table, the figure, the command and the configuration; implies --plot). Progress goes to stderr: a bar redrawn in place when it is a terminal and the
run takes more than two seconds, otherwise a plain line every 30 s of wall time (none for a
shorter run). --quiet prints neither.`,
	setup: func(fs *flag.FlagSet) func(e *env, args []string) error {
		var (
			sets  []string
			seed  *uint64
			out   string
			quiet bool
			fig   figures
			prof  string
			mem   int64
		)
		fs.Var(seedFlag{&seed}, "seed", "random seed `N`, replacing the scenario's seed")
		fs.Var(setList{&sets}, "set", "override a field, `path=value` (repeatable; later wins)")
		fs.Var(policyFlag{&sets}, "policy", "buffer-pool policy `NAME` (shorthand for --set policy=NAME)")
		fs.Var(sloFlag{&sets}, "slo", sloUsage)
		fs.StringVar(&out, "out", "", "write results to `DIR` (replacing a previous result there)")
		fs.BoolVar(&quiet, "quiet", false, "print no interval lines and no progress bar")
		fs.BoolVar(&fig.plot, "plot", false, "draw the throughput figure into <out>/plots (needs --out)")
		fs.BoolVar(&fig.report, "report", false, "write <out>/report.html (needs --out; implies --plot)")
		fs.StringVar(&prof, "cpuprofile", "", "write a Go CPU profile of the simulator to `FILE` (for `go tool pprof`)")
		addMaxMemory(fs, &mem)
		return func(e *env, args []string) error {
			if len(args) != 1 {
				return usagef("run takes exactly one scenario file, got %d arguments", len(args))
			}
			if (fig.plot || fig.report) && out == "" {
				return usagef("--plot and --report write into the result directory: give --out DIR")
			}
			if prof != "" {
				stop, err := startCPUProfile(prof)
				if err != nil {
					return usagef("--cpuprofile: %v", err)
				}
				defer stop()
			}
			return e.runScenario(args[0], sets, seed, out, quiet, fig, mem)
		}
	},
}

// startCPUProfile profiles the process into path until the returned stop is called.
func startCPUProfile(path string) (func(), error) {
	f, err := os.Create(path)
	if err != nil {
		return nil, err
	}
	if err := pprof.StartCPUProfile(f); err != nil {
		f.Close()
		return nil, err
	}
	return func() { pprof.StopCPUProfile(); f.Close() }, nil
}

// figures says what to draw from a run's result besides its data files.
type figures struct{ plot, report bool }

func (e *env) runScenario(path string, sets []string, seed *uint64, out string, quiet bool, fig figures, maxMemory int64) error {
	sc, err := config.LoadWith(path, sets, seed)
	if err != nil {
		return &inputError{err}
	}
	printWarnings(e.stderr, sc.Warnings)
	if err := admit(runner.EstimateRun(sc), 1, maxMemory); err != nil {
		return err
	}
	// The result directory is staged before the run, so an --out that cannot be written is
	// refused now rather than after the simulation.
	var stage *output.Staging
	if out != "" {
		if stage, err = output.Stage(out); err != nil {
			return usagef("--out: %v", err)
		}
		defer stage.Abort() // a no-op once the result is in place
	}
	hash := config.Hash(sc)
	w := e.stdout
	fmt.Fprintf(w, "ddlsim %s seed=%d config=%s\n", output.Version, sc.Seed, hash)
	fmt.Fprintf(w, "reproduce: %s\n", reproduceCommand(path, sets, sc.Seed))
	hw, m := sc.HardwareProfile, sc.MySQL
	dur := sc.Duration.String()
	if sc.Until.Event != "" {
		dur = fmt.Sprintf("until %s + %s (cap %s)", sc.Until.Event, sc.Until.After, sc.Duration)
	}
	fmt.Fprintf(w, "scenario: %s  policy: %s  hardware: %s (%d cores, %s)  pool: %s x %d  warmup: %s  duration: %s\n",
		sc.Name, sc.Policy, hw.Name, hw.Cores, hw.Memory, m.BufferPoolSize, m.BufferPoolInstances, sc.Warmup, dur)
	if sc.Description != "" {
		fmt.Fprintf(w, "description: %s\n", sc.Description)
	}
	tr := trust.Of(sc)
	fmt.Fprintln(w, tr.Line())
	fmt.Fprintln(w)

	var opt runner.Options
	bar := newProgress(e)
	if !quiet {
		opt.Interval = func(s *metrics.Series, row []float64) {
			bar.clear()
			fmt.Fprintln(w, intervalLine(s, row))
		}
		opt.Progress = bar.update
	}
	if !quiet {
		bar.run(int64(sc.Warmup + sc.Duration))
	}
	res, err := runner.Run(sc, opt)
	bar.stop()
	bar.clear()
	if err != nil {
		var pe *runner.PanicError
		if errors.As(err, &pe) {
			pe.Reproduce = reproduceArgs(path, sets, sc.Seed)
		}
		return fmt.Errorf("run %s: %w", path, err)
	}
	if tr.Observed = trust.CompareObserved(sc, &res.Series, res.DDL); tr.Observed.Warning(sc) != "" {
		fmt.Fprintln(e.stderr, tr.Observed.Warning(sc))
	}
	printSummary(w, res.Summary)
	printDDL(w, res.DDL)
	printLatencyHarm(w, res.DDL)
	if res.HitCap {
		fmt.Fprintf(w, "\nthe run hit its cap (duration %s) before its DDL was done: raise duration\n", sc.Duration)
	}
	printMutexes(w, res.Mutexes)

	if out != "" {
		cfg, err := config.Marshal(sc)
		if err != nil {
			return err
		}
		header := fmt.Sprintf("# Effective configuration of this result (ddlsim %s, config=%s).\n# Rerun with: ddlsim run THIS_FILE\n", output.Version, hash)
		b := output.Bundle{
			Series:  &res.Series,
			Summary: res.Summary,
			DDL:     res.DDL,
			Mutexes: res.Mutexes,
			Meta: []output.MetaItem{
				{Key: "scenario", Value: sc.Name},
				{Key: "seed", Value: sc.Seed},
				{Key: "config_hash", Value: hash},
				{Key: "version", Value: output.Version},
				{Key: "policy", Value: sc.Policy.String()},
				{Key: "command", Value: reproduceCommand(path, sets, sc.Seed)},
				{Key: "events", Value: res.Events},
			},
			Config: append([]byte(header), cfg...),
			Trust:  tr,
		}
		if err := stage.Write(b); err != nil {
			return fmt.Errorf("writing results: %w", err)
		}
		fmt.Fprintf(w, "\nresults: %s\n", out)
		return runFigures(w, out, res, fig, append(reproduceArgs(path, sets, sc.Seed), "--out", out, "--report"))
	}
	return nil
}

// runFigures draws a run's figure and writes its report into the result directory out, as fig
// asks. command is shown in the report: the one that reproduces this result and report.
func runFigures(w io.Writer, out string, res *runner.Result, fig figures, command []string) error {
	switch {
	case fig.report:
		f, err := report.Run(out, res, command) // draws the figure too
		if err != nil {
			return fmt.Errorf("report: %w", err)
		}
		fmt.Fprintf(w, "figures: %s\nreport: %s\n", filepath.Join(out, plot.PlotsDir), f)
	case fig.plot:
		files, err := plot.Run(out, report.RunTitle(res), &res.Series, res.DDL)
		if err != nil {
			return fmt.Errorf("plot: %w", err)
		}
		fmt.Fprintf(w, "figures: %s (%d files)\n", filepath.Join(out, plot.PlotsDir), len(files))
	}
	return nil
}

// reproduceCommand is the command line that reruns exactly this configuration.
func reproduceCommand(path string, sets []string, seed uint64) string {
	args := reproduceArgs(path, sets, seed)
	for i, a := range args {
		args[i] = shellQuote(a)
	}
	return strings.Join(args, " ")
}

// reproduceArgs is reproduceCommand as an argument list.
func reproduceArgs(path string, sets []string, seed uint64) []string {
	args := []string{"ddlsim", "run", "--seed", strconv.FormatUint(seed, 10)}
	for _, s := range sets {
		args = append(args, "--set", s)
	}
	return append(args, path)
}

func shellQuote(s string) string {
	safe := s != ""
	for _, r := range s {
		if !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || strings.ContainsRune("_-./=:,+@%", r)) {
			safe = false
			break
		}
	}
	if safe {
		return s
	}
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}
