package main

import "flag"

var helpCmd = &command{
	name:     "help",
	args:     "[COMMAND]",
	synopsis: "show the overview, or a command's full usage",
	usage:    "Without an argument, lists the commands. With one, prints that command's usage and flags.",
	setup: func(fs *flag.FlagSet) func(e *env, args []string) error {
		return func(e *env, args []string) error {
			switch len(args) {
			case 0:
				e.printOverview(e.stdout)
				return nil
			case 1:
				c := e.lookup(args[0])
				if c == nil {
					return usagef("help: unknown command %q", args[0])
				}
				cfs := flag.NewFlagSet("ddlsim "+c.name, flag.ContinueOnError)
				c.setup(cfs)
				c.printUsage(e.stdout, cfs)
				return nil
			}
			return usagef("help takes at most one command name")
		}
	},
}
