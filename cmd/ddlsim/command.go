package main

import (
	"bytes"
	"flag"
	"fmt"
	"io"
	"strings"
)

// command is one subcommand. To add one (compare, sweep, merge, plot), write a file with a
// `var xxxCmd = &command{...}` and add it to the commands table below.
type command struct {
	name     string
	args     string // argument synopsis after the flags, e.g. "SCENARIO"
	synopsis string // one line for the overview
	usage    string // full description, printed by `help CMD` and `CMD -h`
	// setup defines the command's flags on fs and returns the function that runs it with
	// the positional arguments. A fresh flag set per invocation keeps run() re-entrant.
	setup func(fs *flag.FlagSet) func(e *env, args []string) error
}

// commands is the one table of subcommands, in the order `ddlsim help` lists them.
var commands = []*command{
	runCmd,
	checkCmd,
	listCmd,
	importCmd,
	calibrateCmd,
	versionCmd,
	compareCmd,
	explainCmd,
	sweepCmd,
	mergeCmd,
	plotCmd,
	validateCmd,
	completionCmd,
	helpCmd,
}

func (c *command) printUsage(w io.Writer, fs *flag.FlagSet) {
	fmt.Fprintf(w, "usage: ddlsim %s", c.name)
	hasFlags := false
	fs.VisitAll(func(*flag.Flag) { hasFlags = true })
	if hasFlags {
		fmt.Fprint(w, " [flags]")
	}
	if c.args != "" {
		fmt.Fprint(w, " "+c.args)
	}
	fmt.Fprintf(w, "\n\n%s\n", strings.TrimSpace(c.usage))
	if hasFlags {
		fmt.Fprintf(w, "\nflags:\n%s", flagHelp(fs))
	}
}

// flagHelp lists fs's flags in the --flag spelling (the flag package prints -flag; both are
// accepted): "  --out DIR" and its usage indented below, with the default when it is not the
// zero value.
func flagHelp(fs *flag.FlagSet) string {
	var b bytes.Buffer
	fs.VisitAll(func(f *flag.Flag) {
		name, usage := flag.UnquoteUsage(f)
		fmt.Fprintf(&b, "  --%s", f.Name)
		if name != "" {
			fmt.Fprintf(&b, " %s", name)
		}
		b.WriteString("\n    \t")
		b.WriteString(strings.ReplaceAll(usage, "\n", "\n    \t"))
		if d := f.DefValue; d != "" && d != "false" && d != "0" {
			fmt.Fprintf(&b, " (default %q)", d)
		}
		b.WriteString("\n")
	})
	return b.String()
}

func (e *env) printOverview(w io.Writer) {
	fmt.Fprint(w, `ddlsim simulates the MySQL InnoDB buffer pool under DDL: what a CREATE INDEX, DROP
TABLE or TRUNCATE does to production traffic on given hardware with a given buffer-pool
maintenance policy, deterministically and in seconds.

usage: ddlsim COMMAND [flags] [args]

commands:
`)
	for _, c := range e.commands {
		fmt.Fprintf(w, "  %-10s %s\n", c.name, c.synopsis)
	}
	fmt.Fprint(w, `
Run 'ddlsim help COMMAND' (or 'ddlsim COMMAND -h') for a command's flags.
Exit status: 0 success, 1 the run failed, 2 bad input (scenario, flags, missing file).
Scenario reference: docs/scenarios.md; output files: docs/output.md.
`)
}
