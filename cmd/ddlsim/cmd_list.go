package main

import (
	"flag"
	"fmt"
	"path/filepath"
	"strings"
	"text/tabwriter"

	"github.com/ddlsim/ddlsim/model/config"
	"github.com/ddlsim/ddlsim/model/runner"
	srvversion "github.com/ddlsim/ddlsim/model/version"
	"github.com/ddlsim/ddlsim/model/workload"
)

// runner links every registered kind (DDL operations, workloads, policies) into the binary.
var _ = runner.Run

// profileGlob is where shipped hardware profiles live, relative to the working directory
// (the repository root, where the scenarios are run from).
const profileGlob = "scenarios/profiles/*.yaml"

var listCmd = &command{
	name:     "list",
	synopsis: "list policies, workloads, DDL operations, distributions and hardware profiles",
	usage: `Prints every name a scenario may use: buffer-pool policies, workload kinds and sysbench
mixes, sysbench rand types, DDL operations, latency distributions, data-group kinds, and the
hardware profiles shipped in ` + profileGlob + ` (relative to the current directory).`,
	setup: func(fs *flag.FlagSet) func(e *env, args []string) error {
		versions := fs.Bool("versions", false, "print the version table (docs/innodb-source.md §8): per flavour, version range, policy and operation, the buffer-pool steps it runs and their source")
		return func(e *env, args []string) error {
			if len(args) > 0 {
				return usagef("list takes no arguments")
			}
			w := e.stdout
			if *versions {
				fmt.Fprint(w, srvversion.Markdown())
				return nil
			}
			fmt.Fprintf(w, "versions (mysql.version; ddlsim list --versions for the table of what each runs):\n")
			for _, f := range srvversion.Families {
				lo, _ := srvversion.Parse(strings.ReplaceAll(f, "N", "0"))
				hi, _ := srvversion.Parse(strings.ReplaceAll(f, "N", "99"))
				pol := srvversion.TraitsOf(lo).NativePolicy
				if p2 := srvversion.TraitsOf(hi).NativePolicy; p2 != pol {
					pol += " (" + p2 + " from 8.0.23)"
				}
				fmt.Fprintf(w, "  %-16s default policy %s\n", f, pol)
			}
			fmt.Fprintln(w)
			kinds := func(title string, ks []config.Kind) {
				fmt.Fprintf(w, "%s:\n", title)
				tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
				for _, k := range ks {
					fields := strings.Join(k.Fields(), ", ")
					if fields == "" {
						fields = "-"
					}
					fmt.Fprintf(tw, "  %s\t%s\t(%s)\n", k.Name, k.Doc, fields)
				}
				tw.Flush()
			}
			kinds("policies (policy: NAME or {name: NAME, PARAM: value})", config.PolicyKinds())
			fmt.Fprintln(w)
			kinds("workloads (workload: [- KIND: {...}])", config.WorkloadKinds())
			fmt.Fprintf(w, "\nsysbench mixes (sysbench.mix):\n  %s\n", strings.Join(workload.Mixes, "\n  "))
			fmt.Fprintf(w, "\nrand types (sysbench.rand):\n  %s\n", strings.Join(workload.RandTypes, "\n  "))
			fmt.Fprintln(w)
			kinds("DDL operations (schedule: [- {at: T, ddl: NAME, table: GROUP, ...}])", config.DDLKinds())
			fmt.Fprintln(w, "\nlatency distributions (dist:):")
			for _, d := range config.Dists {
				fmt.Fprintf(w, "  %-12s %s\n", d, distParams[d])
			}
			fmt.Fprintf(w, "\ndata kinds (data[].kind):\n  %s\n", strings.Join(config.TableKinds, "\n  "))

			fmt.Fprintf(w, "\nhardware profiles (%s):\n", profileGlob)
			paths, _ := filepath.Glob(profileGlob) // sorted; a bad pattern is impossible here
			if len(paths) == 0 {
				fmt.Fprintln(w, "  (none found; run from the repository root)")
			}
			tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
			var bad []error
			for _, p := range paths {
				hw, err := config.LoadHardware(p)
				if err != nil {
					bad = append(bad, err)
					fmt.Fprintf(tw, "  %s\t(invalid, see below)\t\t\n", p)
					continue
				}
				fmt.Fprintf(tw, "  %s\t%d cores\t%s\t%s\n", hw.Name, hw.Cores, hw.Memory, p)
			}
			tw.Flush()
			for _, err := range bad {
				printErr(e.stderr, err)
			}
			return nil
		}
	},
}

var distParams = map[string]string{
	"constant":    "{dist: constant, value: 100us}",
	"exponential": "{dist: exponential, mean: 100us}",
	"lognormal":   "{dist: lognormal, p50: 100us, p99: 1ms}",
	"empirical":   "{dist: empirical, table: [[0.5, 100us], [0.99, 1ms], [1, 5ms]]}",
}
