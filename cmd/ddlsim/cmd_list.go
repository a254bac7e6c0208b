package main

import (
	"flag"
	"fmt"
	"strings"
	"text/tabwriter"

	"github.com/ddlsim/ddlsim/model/config"
	"github.com/ddlsim/ddlsim/model/runner"
	srvversion "github.com/ddlsim/ddlsim/model/version"
	"github.com/ddlsim/ddlsim/model/workload"
)

// runner links every registered kind (DDL operations, workloads, policies) into the binary.
var _ = runner.Run

var listCmd = &command{
	name:     "list",
	synopsis: "list policies, workloads, DDL operations, distributions and hardware profiles",
	usage: `Prints every name a scenario may use: buffer-pool policies, workload kinds and sysbench
mixes, sysbench rand types, DDL operations, latency distributions, data-group kinds, the
shipped hardware profiles and storage device presets, and the shipped scenarios and sweep
specs. The shipped files are compiled into the binary: their names work from any
directory.`,
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

			fmt.Fprintln(w, "\nhardware profiles (hardware: NAME, or {base: NAME, ...} to build on one; shipped in the binary):")
			tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
			var bad []error
			for _, name := range config.ShippedProfiles() {
				hw, err := config.LoadHardware(name)
				if err != nil {
					bad = append(bad, err)
					fmt.Fprintf(tw, "  %s\t(invalid, see below)\t\n", name)
					continue
				}
				fmt.Fprintf(tw, "  %s\t%d cores\t%s\n", name, hw.Cores, hw.Memory)
			}
			tw.Flush()
			fmt.Fprintln(w, "\ndevice presets (storage: {data: NAME}; each file cites its source):")
			tw = tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
			for _, name := range config.DevicePresets() {
				d, err := config.LoadDevice(name)
				if err != nil {
					bad = append(bad, err)
					continue
				}
				fmt.Fprintf(tw, "  %s\tread p50 %s\t%d channels\t%s/s\n", name, d.Read.P50, d.Channels, d.Bandwidth)
			}
			tw.Flush()
			fmt.Fprintln(w, "\nshipped scenarios and sweep specs (ddlsim run NAME, ddlsim sweep NAME; shipped in the binary):")
			for _, p := range config.ShippedFiles() {
				rel := strings.TrimPrefix(p, config.ShippedPrefix)
				if strings.HasPrefix(rel, "profiles/") {
					continue
				}
				fmt.Fprintf(w, "  %s\n", strings.TrimSuffix(rel, ".yaml"))
			}
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
