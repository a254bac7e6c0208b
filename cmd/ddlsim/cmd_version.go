package main

import (
	"flag"
	"fmt"
	"github.com/ddlsim/ddlsim/internal/output"
	"runtime"
	"runtime/debug"
)

var versionCmd = &command{
	name:     "version",
	synopsis: "print the version and build information",
	usage:    "Prints ddlsim's version, the module version and VCS revision it was built from, and the Go toolchain.",
	setup: func(fs *flag.FlagSet) func(e *env, args []string) error {
		return func(e *env, args []string) error {
			if len(args) > 0 {
				return usagef("version takes no arguments")
			}
			fmt.Fprintf(e.stdout, "ddlsim %s\n", output.Version)
			if bi, ok := debug.ReadBuildInfo(); ok {
				fmt.Fprintf(e.stdout, "module %s %s\n", bi.Main.Path, bi.Main.Version)
			}
			fmt.Fprintf(e.stdout, "go %s %s/%s\n", runtime.Version(), runtime.GOOS, runtime.GOARCH)
			return nil
		}
	},
}
