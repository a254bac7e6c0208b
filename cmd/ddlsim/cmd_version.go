package main

import (
	"flag"
	"fmt"
	"runtime"
	"runtime/debug"
)

// version is the release this source tree is; build info adds the VCS revision when the
// binary was built from a checkout.
const version = "0.1.0-dev"

// versionString is the version printed in run headers and result metadata. It depends only
// on the binary, never on the run, so output stays byte-identical between runs.
func versionString() string {
	v := version
	if bi, ok := debug.ReadBuildInfo(); ok {
		rev, modified := "", false
		for _, s := range bi.Settings {
			switch s.Key {
			case "vcs.revision":
				rev = s.Value
			case "vcs.modified":
				modified = s.Value == "true"
			}
		}
		if len(rev) > 12 {
			rev = rev[:12]
		}
		if rev != "" {
			v += "+" + rev
			if modified {
				v += ".dirty"
			}
		}
	}
	return v
}

var versionCmd = &command{
	name:     "version",
	synopsis: "print the version and build information",
	usage:    "Prints ddlsim's version, the module version and VCS revision it was built from, and the Go toolchain.",
	setup: func(fs *flag.FlagSet) func(e *env, args []string) error {
		return func(e *env, args []string) error {
			if len(args) > 0 {
				return usagef("version takes no arguments")
			}
			fmt.Fprintf(e.stdout, "ddlsim %s\n", versionString())
			if bi, ok := debug.ReadBuildInfo(); ok {
				fmt.Fprintf(e.stdout, "module %s %s\n", bi.Main.Path, bi.Main.Version)
			}
			fmt.Fprintf(e.stdout, "go %s %s/%s\n", runtime.Version(), runtime.GOOS, runtime.GOARCH)
			return nil
		}
	},
}
