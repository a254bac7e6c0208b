package main

import (
	"errors"
	"flag"
	"fmt"
	"github.com/ddlsim/ddlsim/internal/output"
	"io/fs"
	"os"
	"path/filepath"

	"github.com/ddlsim/ddlsim/internal/plot"
	"github.com/ddlsim/ddlsim/internal/report"
)

var plotCmd = &command{
	name:     "plot",
	args:     "RESULTS_DIR...",
	synopsis: "draw the figures (PNG and SVG) of saved results",
	usage: `Draws the figures of saved results into RESULTS_DIR/plots, PNG and SVG, without
simulating: for a compare directory, the policies' throughput overlaid with their DDL
intervals shaded, and each key metric per policy as bars from zero with 95% CI error bars;
for a sweep, each metric
against each swept parameter, one line per policy, with CI bands; for a run directory
(ddlsim run --out), its throughput with the DDL intervals shaded and phases marked.`,
	setup: func(fs *flag.FlagSet) func(e *env, args []string) error {
		doReport := fs.Bool("report", false, "also write RESULTS_DIR/report.html (compare and sweep directories)")
		partial := fs.Bool("partial", false, "draw a series that was cut short as far as it goes, with a warning, instead of refusing it")
		return func(e *env, dirs []string) error {
			if len(dirs) == 0 {
				return usagef("plot needs a results directory")
			}
			for _, d := range dirs {
				if _, err := os.Stat(d); err != nil {
					return &inputError{err}
				}
				if err := checkResultsDir(d); err != nil {
					return err
				}
				if err := output.PrepareDir(filepath.Join(d, plot.PlotsDir)); err != nil {
					return usagef("%s: cannot write the figures: %v", d, err)
				}
				files, err := plot.DirWith(d, plot.Options{Partial: *partial, Warn: e.stderr})
				if err != nil {
					return err
				}
				fmt.Fprintf(e.stdout, "%s: %d figures (PNG and SVG) → %s\n", d, len(files)/2, filepath.Join(d, plot.PlotsDir))
				if !*doReport {
					continue
				}
				if _, err := os.Stat(filepath.Join(d, output.ManifestFile)); err != nil {
					return usagef("%s: --report needs a compare or sweep directory (for a run, use ddlsim run --report)", d)
				}
				f, err := report.Dir(d, nil)
				if err != nil {
					return err
				}
				fmt.Fprintf(e.stdout, "report → %s\n", f)
			}
			return nil
		}
	},
}

// checkResultsDir refuses a directory that is not a result before anything is drawn or
// written into it: a compare or sweep directory must have a manifest of this schema, a run
// directory a summary.json of this schema or a series.csv.
func checkResultsDir(d string) error {
	if _, err := output.ReadManifest(d); !errors.Is(err, fs.ErrNotExist) {
		return err
	}
	for _, f := range []string{output.SummaryFile, output.SeriesFile} {
		if _, err := os.Stat(filepath.Join(d, f)); err == nil {
			return nil
		}
	}
	return &output.ReadError{File: d, Msg: fmt.Sprintf("not a ddlsim result: no %s (compare, sweep), %s or %s (run --out)", output.ManifestFile, output.SummaryFile, output.SeriesFile)}
}
