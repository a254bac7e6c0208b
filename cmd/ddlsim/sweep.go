package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"github.com/ddlsim/ddlsim/internal/output"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"strings"

	"github.com/ddlsim/ddlsim/internal/plot"
	"github.com/ddlsim/ddlsim/internal/report"
	"github.com/ddlsim/ddlsim/internal/sweep"
)

var sweepCmd = &command{
	name:     "sweep",
	args:     "SPEC.yaml",
	synopsis: "run a parameter sweep on all cores, or one shard of it on a cluster",
	usage: `Runs every point of a sweep spec (a base scenario plus axes over its fields, see
docs/sweeps.md) with the spec's seeds, in parallel on local cores, into a results
directory: manifest.json, points/ (one file per finished point, written atomically),
results.jsonl and results.csv (regenerated at the end, sorted by point and seed).

Sharding: --shard i/n runs the points whose id ≡ i (mod n). Without --shard, a Slurm
array task (SLURM_ARRAY_TASK_ID/_COUNT/_MIN/_STEP) or a Kubernetes Indexed Job pod
(JOB_COMPLETION_INDEX and DDLSIM_SHARD_COUNT) runs its shard. Combine shards with
ddlsim merge. Results do not depend on --jobs or sharding, except the wall_time_s
column (docs/sweeps.md). Ctrl-C keeps the finished points; rerun with --resume.`,
	setup: func(fs *flag.FlagSet) func(e *env, args []string) error {
		out := fs.String("out", "", "results directory (default out/sweep-<spec name>[-shard-i-of-n])")
		jobs := fs.Int("jobs", runtime.NumCPU(), "simulations run at once")
		shardFlag := fs.String("shard", "", "run only shard i/n (points whose id ≡ i mod n)")
		resume := fs.Bool("resume", false, "finish an interrupted sweep in --out: run only the missing points")
		series := fs.Bool("series", false, "also keep every run's per-interval series in series/ (for throughput plots)")
		doPlot := fs.Bool("plot", false, "draw figures into <out>/plots")
		doReport := fs.Bool("report", false, "write <out>/report.html (implies --plot)")
		var sets []string
		var mem int64
		addMaxMemory(fs, &mem)
		fs.Var(setList{&sets}, "set", "override a base scenario field for every run, `path=value` (repeatable)")
		fs.Var(sloFlag{&sets}, "slo", sloUsage)
		return func(e *env, pos []string) error {
			stdout, stderr := e.stdout, e.stderr
			if len(pos) != 1 {
				return usagef("sweep takes exactly one spec file, got %d arguments", len(pos))
			}
			sp, err := sweep.LoadSpec(pos[0])
			if err != nil {
				return &inputError{err}
			}
			shard, src := (*sweep.Shard)(nil), "--shard"
			if *shardFlag != "" {
				if shard, err = sweep.ParseShard(*shardFlag); err != nil {
					return usagef("%v", err)
				}
			} else if shard, src, err = sweep.ShardFromEnv(os.Getenv); err != nil {
				return usagef("%v", err)
			}
			plan, base, err := sweep.PlanSpec(sp, sets)
			if err != nil {
				return &inputError{err}
			}
			printWarnings(stderr, plan.Warnings)
			if err := admit(plan.Peak, min(max(*jobs, 1), len(plan.Points)*len(plan.Seeds)), mem); err != nil {
				return err
			}
			if *out == "" {
				name := strings.TrimSuffix(filepath.Base(pos[0]), filepath.Ext(pos[0]))
				*out = filepath.Join("out", "sweep-"+name)
				if shard != nil {
					*out += fmt.Sprintf("-shard-%d-of-%d", shard.Index, shard.Count)
				}
			}
			if shard != nil {
				fmt.Fprintf(stderr, "shard %s (from %s)\n", shard, src)
			}
			fmt.Fprintf(stdout, "sweep %s: %d points × %d seeds, spec hash %s, %d jobs → %s\n",
				pos[0], len(plan.Points), len(plan.Seeds), plan.SpecHash, *jobs, *out)
			tr := printTrust(stdout, base)
			command := wfCommand("sweep")
			obs := &observedRuns{base: base}
			rep, err := wfExecute(plan, sweep.Options{Dir: *out, Jobs: *jobs, Shard: shard, Resume: *resume,
				SaveSeries: *series, Progress: stderr, Command: command, Run: obs.wrap(base.RunFunc())})
			if err != nil {
				return err
			}
			obs.report(stderr, tr)
			if err := writeTrust(*out, tr); err != nil {
				return err
			}
			fmt.Fprintf(stdout, "%d points (%d run now, %d already done), %d rows → %s, %s\n", rep.Total, rep.Ran, rep.Skipped,
				len(rep.Rows), filepath.Join(*out, output.JSONLFile), filepath.Join(*out, output.CSVFile))
			if err := printSweepTable(stdout, rep.Rows); err != nil {
				return err
			}
			output.PrintUnfinished(stdout, rep.Rows)
			return wfFigures(*out, *doPlot, *doReport, command, stdout)
		}
	},
}

// wfExecute runs a plan, stopping cleanly on Ctrl-C / SIGTERM (finished points are kept,
// a second signal exits at once: interruptible).
func wfExecute(plan *sweep.Plan, opt sweep.Options) (*sweep.Report, error) {
	ctx, stop := interruptible(opt.Progress)
	defer stop()
	rep, err := sweep.Execute(ctx, plan, opt)
	if errors.Is(err, context.Canceled) {
		return rep, fmt.Errorf("interrupted after %d runs; finish with the same command and --resume", rep.Runs)
	}
	return rep, err
}

// wfFigures draws the figures and writes the report of a results directory as asked.
func wfFigures(dir string, doPlot, doReport bool, command []string, stdout io.Writer) error {
	if doPlot || doReport {
		files, err := plot.Dir(dir)
		if err != nil {
			return err
		}
		fmt.Fprintf(stdout, "%d figures (PNG and SVG) → %s\n", len(files)/2, filepath.Join(dir, plot.PlotsDir))
	}
	if doReport {
		f, err := report.Dir(dir, command)
		if err != nil {
			return err
		}
		fmt.Fprintf(stdout, "report → %s\n", f)
	}
	return nil
}

// wfCommand is the command line as typed (recorded in manifests and reports); the
// subcommand name is checked so a command reached another way is not misreported.
func wfCommand(sub string) []string {
	if len(os.Args) > 1 && os.Args[1] == sub {
		return append([]string{"ddlsim"}, os.Args[1:]...)
	}
	return []string{"ddlsim", sub}
}

// printSweepTable prints the sweep's key table (output.PrintKeyTable: one line per point,
// in point order) and which point harmed least.
func printSweepTable(w io.Writer, rows []output.Row) error {
	groups := output.GroupByPoint(rows)
	if len(groups) == 0 {
		return nil
	}
	h := output.HarmOf(rows)
	fmt.Fprintf(w, "\nper point, mean ± 95%% CI over the seeds; %s: %s:\n", h.Name, h.About)
	if err := output.PrintKeyTable(w, groups, h, false); err != nil {
		return err
	}
	best := output.Rank(groups, h)[0]
	fmt.Fprintf(w, "least harm: point %d (%s)\n", best.Point, output.GroupLabel(best))
	return nil
}
