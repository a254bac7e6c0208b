// Package archtest holds the repository-wide tests of the architecture, checked on the code
// itself (go/parser, no build): the import graph against docs/architecture.md's table and the
// maintenance layering (policies → model/maint → model/server → model/bufpool), the one
// assembly path (runner.Build), the one output room (no wall clock or host in model/, one
// writer per output file kind) and the length limits (files, functions) with their named
// exceptions. It has no code of its own; `go test ./internal/archtest` runs them.
package archtest
