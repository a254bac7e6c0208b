package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// `ddlsim validate --check` passes on the repository as committed (the doc's tables are the
// results' rendering), and renders into --out without touching the doc; a doc whose table was
// edited by hand fails the check.
func TestValidateCheck(t *testing.T) {
	out, errOut, code := ddlsim(t, "validate", "--check", "--root", "../..")
	if code != 0 || !strings.Contains(out, "up to date") {
		t.Fatalf("validate --check: exit %d\nstdout %s\nstderr %s", code, out, errOut)
	}
	doc, err := os.ReadFile("../../docs/validation.md")
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	edited := filepath.Join(dir, "edited.md")
	i := strings.Index(string(doc), "<!-- validate table=lab-baseline -->\n")
	if i < 0 {
		t.Fatal("no lab-baseline table in docs/validation.md")
	}
	bad := string(doc[:i]) + strings.Replace(string(doc[i:]), "| A 256 MiB", "| A 255 MiB", 1)
	if err := os.WriteFile(edited, []byte(bad), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, errOut, code := ddlsim(t, "validate", "--check", "--root", "../..", "--doc", edited); code == 0 || !strings.Contains(errOut, "differ") {
		t.Errorf("a hand-edited table passed the check: exit %d, %s", code, errOut)
	}
	if _, errOut, code := ddlsim(t, "validate", "--root", "../..", "--doc", edited, "--out", dir); code != 0 {
		t.Fatalf("validate --out: exit %d, %s", code, errOut)
	}
	fixed, _ := os.ReadFile(filepath.Join(dir, "edited.md"))
	if string(fixed) != string(doc) {
		t.Error("rendering the results into the edited doc did not give the committed doc")
	}
}
