package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// An installed binary run outside the checkout: the shipped profiles, presets and
// scenarios are found by name, and a scenario built on a shipped profile with overrides
// runs (issue 16, "Done when").
func TestShippedOutsideCheckout(t *testing.T) {
	small, err := os.ReadFile(small)
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	t.Chdir(dir)
	out, stderr, code := ddlsim(t, "list")
	if code != 0 || stderr != "" {
		t.Fatalf("list: exit %d\n%s", code, stderr)
	}
	for _, want := range []string{"  8c-64g ", "  80c-256g ", "  nvme ", "  hdd ", "  quickstart\n", "  faster-ddl/create-index\n"} {
		if !strings.Contains(out, want) {
			t.Errorf("list outside the checkout lacks %q:\n%s", want, out)
		}
	}
	if out, stderr, code := ddlsim(t, "check", "quickstart", "sweeps/ci-small"); code != 0 || !strings.Contains(out, "ok: quickstart") ||
		!strings.Contains(out, "sweep spec") {
		t.Errorf("check by name: exit %d\n%s%s", code, out, stderr)
	}

	text := strings.Replace(string(small), "hardware: ../../../scenarios/profiles/8c-64g.yaml",
		"hardware: {base: 8c-64g, cores: 4, storage: {data: nvme}}", 1)
	os.WriteFile(filepath.Join(dir, "mine.yaml"), []byte(text), 0o644)
	out, stderr, code = ddlsim(t, "run", "--quiet", "mine.yaml")
	if code != 0 || !strings.Contains(out, "hardware: 8c-64g+custom (4 cores, 64GiB)") {
		t.Errorf("run of a profile built on a shipped one: exit %d\n%s%s", code, out, stderr)
	}
	// A profile without costs is refused, with the way out.
	os.WriteFile(filepath.Join(dir, "nocost.yaml"), []byte(strings.Replace(text, "{base: 8c-64g, cores: 4, storage: {data: nvme}}",
		"{cores: 4, memory: 8GiB, client_rtt: 100us, storage: {data: nvme}}", 1)), 0o644)
	_, stderr, code = ddlsim(t, "check", "nocost.yaml")
	if code != 2 || !strings.Contains(stderr, "nocost.yaml:6:11: hardware.costs: missing: costs page_hit,") || !strings.Contains(stderr, "base: 8c-64g") {
		t.Errorf("profile without costs: exit %d\n%s", code, stderr)
	}
}
