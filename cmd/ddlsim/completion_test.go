package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// The bash script completes commands, flags, flag values and shipped scenario names (run in
// bash when it is installed); the zsh script is valid zsh (checked with zsh -n when zsh is
// installed) and names every command and flag.
func TestCompletion(t *testing.T) {
	bash, _, code := ddlsim(t, "completion", "bash")
	if code != 0 || !strings.Contains(bash, "complete -o filenames -F _ddlsim ddlsim") {
		t.Fatalf("completion bash: exit %d", code)
	}
	zsh, _, code := ddlsim(t, "completion", "zsh")
	if code != 0 || !strings.HasPrefix(zsh, "#compdef ddlsim") {
		t.Fatalf("completion zsh: exit %d", code)
	}
	for _, c := range commands {
		if !strings.Contains(zsh, "'"+c.name+":") || !strings.Contains(bash, "        "+c.name+")") {
			t.Errorf("a script lacks command %s", c.name)
		}
	}
	for _, want := range []string{"'--seed[random seed N", "'*--set[", ":policy:(fullscan indexed lazy percona_lazy)", "quickstart"} {
		if !strings.Contains(zsh, want) {
			t.Errorf("zsh script lacks %q", want)
		}
	}
	if _, stderr, code := ddlsim(t, "completion", "fish"); code != 2 || !strings.Contains(stderr, "bash or zsh") {
		t.Errorf("completion fish: exit %d %s", code, stderr)
	}
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "c.bash"), []byte(bash), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "c.zsh"), []byte(zsh), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := exec.LookPath("bash"); err == nil {
		script := `source c.bash
t() { COMP_WORDS=("$@"); COMP_CWORD=$((${#COMP_WORDS[@]}-1)); COMPREPLY=(); _ddlsim; echo "${COMPREPLY[*]}"; }
t ddlsim r; t ddlsim run --se; t ddlsim run --policy ""; t ddlsim run quick; t ddlsim help com; t ddlsim completion ""; t ddlsim run --seed 3 --pol
`
		cmd := exec.Command("bash", "-c", script)
		cmd.Dir = dir
		out, err := cmd.CombinedOutput()
		want := "run\n--seed --set\nfullscan indexed lazy percona_lazy\nquickstart\ncompare completion\nbash zsh\n--policy\n"
		if err != nil || string(out) != want {
			t.Errorf("bash completion: %v\ngot:\n%s\nwant:\n%s", err, out, want)
		}
	}
	if _, err := exec.LookPath("zsh"); err == nil {
		if out, err := exec.Command("zsh", "-n", filepath.Join(dir, "c.zsh")).CombinedOutput(); err != nil {
			t.Errorf("zsh -n: %v\n%s", err, out)
		}
	}
}
