package version

import (
	"fmt"
	"strings"
)

// Markdown renders the version table as docs/innodb-source.md §8 holds it (the test
// TestVersionTableDoc keeps the two equal; `ddlsim list --versions` prints it).
func Markdown() string {
	var b strings.Builder
	b.WriteString("| flavour | versions | policy | operation | steps | routines | source | mark |\n")
	b.WriteString("|---|---|---|---|---|---|---|---|\n")
	for _, r := range Table {
		steps := "—"
		if len(r.Steps) > 0 {
			var s []string
			for _, st := range r.Steps {
				s = append(s, "`"+string(st)+"`")
			}
			steps = strings.Join(s, " + ")
		}
		to := r.To
		if strings.HasSuffix(to, ".999") {
			to = strings.TrimSuffix(to, ".999") + ".x"
			to = strings.ReplaceAll(to, ".999", ".x")
		}
		fmt.Fprintf(&b, "| %s | %s – %s | `%s` | `%s` | %s | %s | %s | %s |\n",
			r.Flavor, r.From, to, r.Policy, r.Op, steps, r.Chain, r.Source, r.Mark)
	}
	return b.String()
}
