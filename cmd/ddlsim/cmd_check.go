package main

import (
	"errors"
	"flag"
	"fmt"

	"github.com/ddlsim/ddlsim/model/config"
)

var checkCmd = &command{
	name:     "check",
	args:     "SCENARIO...",
	synopsis: "validate scenario files without running them",
	usage: `Loads each scenario exactly as run would (hardware profile, overrides, defaults,
validation) and prints "ok: FILE" for each good one. Every problem in every file is printed
to stderr as FILE:LINE:COL: PATH: message, and the exit status is 2 if there was any.`,
	setup: func(fs *flag.FlagSet) func(e *env, args []string) error {
		var sets []string
		fs.Var(setList{&sets}, "set", "override a field, `path=value` (repeatable), checked like the file's own values")
		return func(e *env, args []string) error {
			if len(args) == 0 {
				return usagef("check needs at least one scenario file")
			}
			config.KnownPolicies = policyNames
			var errs []error
			for _, path := range args {
				if _, err := config.LoadWith(path, sets, nil); err != nil {
					errs = append(errs, &inputError{err})
					continue
				}
				fmt.Fprintf(e.stdout, "ok: %s\n", path)
			}
			return errors.Join(errs...)
		}
	},
}
