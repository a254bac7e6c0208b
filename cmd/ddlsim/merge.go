package main

import (
	"flag"
	"fmt"
	"github.com/ddlsim/ddlsim/internal/output"
	"path/filepath"

	"github.com/ddlsim/ddlsim/internal/sweep"
)

var mergeCmd = &command{
	name:     "merge",
	args:     "DIR...",
	synopsis: "combine the shard directories of a sweep into one result",
	usage: `Combines the results directories of a sharded sweep (one per shard) into --out. Checks
that every shard ran the same spec (the spec hash in each manifest) and that every point
of the spec is present exactly once, listing every problem; then writes the same
results.jsonl and results.csv an unsharded sweep would have written (docs/sweeps.md).`,
	setup: func(fs *flag.FlagSet) func(e *env, args []string) error {
		out := fs.String("out", "", "merged results `DIR` (required)")
		doPlot := fs.Bool("plot", false, "draw figures into <out>/plots")
		doReport := fs.Bool("report", false, "write <out>/report.html (implies --plot)")
		return func(e *env, dirs []string) error {
			if len(dirs) == 0 || *out == "" {
				return usagef("merge needs the shard directories and --out DIR")
			}
			command := wfCommand("merge")
			rep, err := sweep.Merge(*out, dirs, command)
			if err != nil {
				return err
			}
			fmt.Fprintf(e.stdout, "merged %d shards: %d points, %d rows → %s, %s\n", len(dirs), rep.Total, len(rep.Rows),
				filepath.Join(*out, output.JSONLFile), filepath.Join(*out, output.CSVFile))
			return wfFigures(*out, *doPlot, *doReport, command, e.stdout)
		}
	},
}
