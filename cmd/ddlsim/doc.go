// Command ddlsim is the simulator's command line: it loads scenarios, runs them and prints
// or writes what they measured. It is deliberately thin — parsing, calling model/config and
// model/runner, printing — so everything it does is reachable from tests through
// run(args, stdout, stderr).
//
// Subcommands live one per file and are registered in the single commands table
// (command.go). Exit status: 0 success, 1 the run failed, 2 bad input (a scenario error,
// an unknown flag or command, a missing file). The manual is docs/cli.md.
package main
