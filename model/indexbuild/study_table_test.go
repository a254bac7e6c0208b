//go:build validation

package indexbuild

import (
	"fmt"
	"os"
	"regexp"
	"strings"
	"testing"
)

// The option study's full table is a study, not a check: it runs behind the validation tag
// (.ci/run: go test -tags validation -run StudyTable ./model/indexbuild/); TestStudyTrends
// keeps the study's checks in the unit suite.

// TestStudyTable computes the option study's three tables and checks them against
// docs/validation.md ("Index-build option study"), where each sits between
// <!-- study table=NAME --> and <!-- /study --> (threads, buffer, myrocks). With
// DDLSIM_UPDATE_DOC=1 it writes them there instead.
func TestStudyTable(t *testing.T) {
	if testing.Short() {
		t.Skip("full-size grid")
	}
	mode := map[bool]string{false: "all at once", true: "one at a time"}
	tables := map[string]string{}
	var b strings.Builder
	w := func(format string, a ...any) { fmt.Fprintf(&b, format, a...) }

	w("| rows | mode |")
	for _, th := range threadGrid {
		w(" %d |", th)
	}
	w("\n|---|---|%s\n", strings.Repeat("---|", len(threadGrid)))
	for _, rows := range studyRows {
		for _, one := range []bool{false, true} {
			w("| %dB | %s |", rows/1e9, mode[one])
			for _, th := range threadGrid {
				w(" %s |", cell(studyBuild(t, rows, func(s *Spec) { s.Threads, s.OneAtATime = th, one })))
			}
			w("\n")
		}
	}
	tables["threads"] = b.String()
	b.Reset()

	w("| rows | mode |")
	for _, bs := range bufferGrid {
		w(" %s |", strings.TrimSuffix(strings.ReplaceAll(fmtBytes(bs), ".0 ", ""), "iB"))
	}
	w("\n|---|---|%s\n", strings.Repeat("---|", len(bufferGrid)))
	for _, rows := range studyRows {
		for _, one := range []bool{false, true} {
			w("| %dB | %s |", rows/1e9, mode[one])
			for _, bs := range bufferGrid {
				w(" %s |", cell(studyBuild(t, rows, func(s *Spec) { s.BufferSize, s.OneAtATime = bs, one })))
			}
			w("\n")
		}
	}
	tables["buffer"] = b.String()
	b.Reset()

	combine := []int64{64 * mib, 128 * mib, 256 * mib, 512 * mib, gib}
	w("| rows |")
	for _, c := range combine {
		w(" %s |", strings.TrimSuffix(strings.ReplaceAll(fmtBytes(c), ".0 ", ""), "iB"))
	}
	w("\n|---|%s\n", strings.Repeat("---|", len(combine)))
	for _, rows := range studyRows {
		w("| %dB |", rows/1e9)
		for _, c := range combine {
			w(" %s |", cell(studyBuild(t, rows, func(s *Spec) { s.Engine, s.MyRocks.MergeCombineReadSize = "myrocks", c })))
		}
		w("\n")
	}
	tables["myrocks"] = b.String()

	const docPath = "../../docs/validation.md"
	doc, err := os.ReadFile(docPath)
	if err != nil {
		t.Fatal(err)
	}
	re := regexp.MustCompile(`(?s)<!-- study table=(\w+) -->\n(.*?)<!-- /study -->`)
	seen := map[string]bool{}
	out := re.ReplaceAllStringFunc(string(doc), func(m string) string {
		sub := re.FindStringSubmatch(m)
		want, ok := tables[sub[1]]
		if !ok {
			t.Errorf("docs/validation.md: study table %q is not one this test makes", sub[1])
			return m
		}
		seen[sub[1]] = true
		if sub[2] != want && os.Getenv("DDLSIM_UPDATE_DOC") == "" {
			t.Errorf("docs/validation.md study table %s differs from the model (DDLSIM_UPDATE_DOC=1 go test ./model/indexbuild -run StudyTable writes it):\n--- doc\n%s--- model\n%s", sub[1], sub[2], want)
		}
		return "<!-- study table=" + sub[1] + " -->\n" + want + "<!-- /study -->"
	})
	for name := range tables {
		if !seen[name] {
			t.Errorf("docs/validation.md has no <!-- study table=%s --> block", name)
		}
	}
	if os.Getenv("DDLSIM_UPDATE_DOC") != "" && out != string(doc) {
		if err := os.WriteFile(docPath, []byte(out), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// studyRows are the table sizes of the reference's study (1 B to 8 B rows).
var studyRows = []int64{1e9, 2e9, 4e9, 8e9}

func cell(r Result) string {
	if r.Failed {
		return "failed"
	}
	return fmt.Sprintf("%.0f", secs(r.Duration()))
}
