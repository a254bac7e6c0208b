package main

import (
	"bytes"
	"encoding/base64"
	"errors"
	"flag"
	"fmt"
	"github.com/ddlsim/ddlsim/internal/output"
	"html"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/ddlsim/ddlsim/model/config"
	"github.com/ddlsim/ddlsim/model/metrics"
)

const (
	good          = "../../model/config/testdata/good.yaml"
	threeMistakes = "../../model/config/testdata/three-mistakes.yaml"
	// small is good.yaml's shape (sysbench plus a CREATE INDEX) shrunk to run in well under a
	// second: the tests that simulate check the command line, not the simulator.
	small = "testdata/small.yaml"
)

// ddlsim runs the CLI in-process and returns stdout, stderr and the exit code.
func ddlsim(t *testing.T, args ...string) (string, string, int) {
	t.Helper()
	var out, errOut bytes.Buffer
	code := exitCode(run(args, &out, &errOut))
	return out.String(), errOut.String(), code
}

func TestExitCodes(t *testing.T) {
	for _, tc := range []struct {
		err  error
		want int
	}{
		{nil, 0},
		{flag.ErrHelp, 0},
		{usagef("x"), 2},
		{config.Errors{{Msg: "x"}}, 2},
		{&inputError{errors.New("x")}, 2},
		{fmt.Errorf("wrapped: %w", os.ErrNotExist), 2},
		{errors.Join(&inputError{config.Errors{{Msg: "x"}}}, &inputError{os.ErrNotExist}), 2},
		{errors.New("simulation exploded"), 1},
	} {
		if got := exitCode(tc.err); got != tc.want {
			t.Errorf("exitCode(%v) = %d, want %d", tc.err, got, tc.want)
		}
	}
}

func TestCheckThreeMistakes(t *testing.T) {
	stdout, stderr, code := ddlsim(t, "check", threeMistakes)
	if code != 2 {
		t.Errorf("exit %d, want 2", code)
	}
	if stdout != "" {
		t.Errorf("stdout: %q", stdout)
	}
	lines := strings.Split(strings.TrimSpace(stderr), "\n")
	if len(lines) != 3 {
		t.Fatalf("want 3 error lines, got:\n%s", stderr)
	}
	for i, line := range []int{6, 7, 13} {
		prefix := fmt.Sprintf("%s:%d:", threeMistakes, line)
		if !strings.HasPrefix(lines[i], prefix) {
			t.Errorf("line %d = %q, want prefix %q", i, lines[i], prefix)
		}
	}

	// A good file next to it is still reported ok; the status is still 2.
	stdout, stderr, code = ddlsim(t, "check", good, threeMistakes)
	if code != 2 || !strings.HasPrefix(stdout, "ok: "+good+"\n  estimate: memory ≈ ") || strings.Count(stdout, "ok: ") != 1 || strings.Count(stderr, "\n") != 3 {
		t.Errorf("mixed check: exit %d\nstdout %q\nstderr %q", code, stdout, stderr)
	}
	if _, _, code := ddlsim(t, "check", good); code != 0 {
		t.Errorf("good file: exit %d", code)
	}
}

func TestUsageErrors(t *testing.T) {
	for _, args := range [][]string{
		{},
		{"frobnicate"},
		{"run"},
		{"run", good, "--no-such-flag"},
		{"run", good, "--seed", "minus-one"},
		{"run", "no-such-file.yaml"},
		{"check"},
		{"help", "frobnicate"},
		{"run", good, "--set", "mysql.innodb_buffer_pool_size=12 parsecs"},
	} {
		_, stderr, code := ddlsim(t, args...)
		if code != 2 {
			t.Errorf("%v: exit %d, want 2 (stderr %q)", args, code, stderr)
		}
		if stderr == "" {
			t.Errorf("%v: no message on stderr", args)
		}
	}
	_, stderr, _ := ddlsim(t, "frobnicate")
	if !strings.Contains(stderr, `unknown command "frobnicate"; run 'ddlsim help'`) {
		t.Errorf("stderr: %q", stderr)
	}
	// Did you mean, for commands and flags, in the --flag spelling.
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"rnu", good}, `unknown command "rnu" (did you mean run?)`},
		{[]string{"comapre"}, `(did you mean compare?)`},
		{[]string{"run", good, "--sed", "3"}, "run: unknown flag --sed (did you mean --seed?)"},
		{[]string{"run", good, "-polcy", "indexed"}, "unknown flag --polcy (did you mean --policy?)"},
		{[]string{"run", good, "--frobnicate"}, "unknown flag --frobnicate (flags: --cpuprofile,"},
		{[]string{"run", good, "--seed"}, "flag --seed needs a value"},
		{[]string{"run", good, "--quiet=maybe"}, `invalid boolean value "maybe" for --quiet`},
	} {
		_, stderr, code := ddlsim(t, c.args...)
		if code != 2 || !strings.Contains(stderr, c.want) {
			t.Errorf("%v: exit %d, stderr %q, want %q", c.args, code, stderr, c.want)
		}
	}
}

func TestHelp(t *testing.T) {
	for _, args := range [][]string{{"help", "run"}, {"run", "-h"}, {"run", "--help"}} {
		stdout, _, code := ddlsim(t, args...)
		if code != 0 {
			t.Errorf("%v: exit %d", args, code)
		}
		for _, want := range []string{"usage: ddlsim run [flags] SCENARIO", "\n  --set path=value\n", "\n  --seed N\n", "\n  --out DIR\n", "\n  --policy NAME\n", "\n  --quiet\n"} {
			if !strings.Contains(stdout, want) {
				t.Errorf("%v: usage lacks %q:\n%s", args, want, stdout)
			}
		}
	}
	stdout, _, code := ddlsim(t, "help")
	if code != 0 {
		t.Errorf("help: exit %d", code)
	}
	for _, c := range commands {
		if !strings.Contains(stdout, "  "+c.name+" ") {
			t.Errorf("overview lacks %s:\n%s", c.name, stdout)
		}
		// Every command's own usage must render.
		if out, _, code := ddlsim(t, "help", c.name); code != 0 || !strings.Contains(out, "usage: ddlsim "+c.name) {
			t.Errorf("help %s: exit %d\n%s", c.name, code, out)
		}
	}
}

func TestRunDeterministic(t *testing.T) {
	a, _, code := ddlsim(t, "run", "--seed", "1", small)
	if code != 0 {
		t.Fatalf("exit %d", code)
	}
	b, _, _ := ddlsim(t, "run", small, "--seed", "1") // flags after the file work too
	c, _, _ := ddlsim(t, "run", "--seed", "2", small)
	if a != b {
		t.Errorf("same seed, different output:\n%s\n---\n%s", a, b)
	}
	if a == c {
		t.Errorf("different seeds, same output:\n%s", a)
	}
	if !regexp.MustCompile(`^ddlsim \S+ seed=1 config=[0-9a-f]{16}\nreproduce: ddlsim run --seed 1 \S+small.yaml\n`).MatchString(a) {
		t.Errorf("header:\n%s", a)
	}
	if !strings.Contains(a, "[ 1s ] tps: ") || !strings.Contains(a, "summary:") {
		t.Errorf("no interval lines or summary:\n%s", a)
	}
	q, _, _ := ddlsim(t, "run", "--quiet", "--seed", "1", small)
	if strings.Contains(q, "[ 1s ]") {
		t.Errorf("--quiet printed interval lines")
	}
}

func TestRunOverridesChangeConfigHash(t *testing.T) {
	hash := regexp.MustCompile(`config=([0-9a-f]+)`)
	a, _, _ := ddlsim(t, "run", small)
	b, _, _ := ddlsim(t, "run", small, "--policy", "lazy")
	c, _, _ := ddlsim(t, "run", small, "--set", "policy=lazy")
	ha, hb, hc := hash.FindStringSubmatch(a)[1], hash.FindStringSubmatch(b)[1], hash.FindStringSubmatch(c)[1]
	if ha == hb || hb != hc {
		t.Errorf("hashes: base %s, --policy %s, --set policy %s", ha, hb, hc)
	}
	if !strings.Contains(b, "reproduce: ddlsim run --seed 42 --set policy=lazy ") {
		t.Errorf("reproduce line lacks the override:\n%s", b)
	}
}

func TestRunOut(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "result")
	stdout, stderr, code := ddlsim(t, "run", "--out", dir, "--seed", "3", small)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	for _, f := range []string{output.SeriesFile, output.SummaryFile, output.DDLFile, output.ConfigFile} {
		if _, err := os.Stat(filepath.Join(dir, f)); err != nil {
			t.Errorf("missing %s", f)
		}
	}
	if !strings.Contains(stdout, "results: "+dir) {
		t.Errorf("stdout does not name the result directory:\n%s", stdout)
	}
	// The saved configuration reruns to the same configuration.
	cfg := filepath.Join(dir, output.ConfigFile)
	rerun, stderr, code := ddlsim(t, "run", cfg)
	if code != 0 {
		t.Fatalf("rerun of config.yaml: exit %d: %s", code, stderr)
	}
	h := regexp.MustCompile(`seed=\d+ config=[0-9a-f]+`)
	if h.FindString(rerun) != h.FindString(stdout) {
		t.Errorf("config.yaml reruns as %q, want %q", h.FindString(rerun), h.FindString(stdout))
	}
	sum, _ := os.ReadFile(filepath.Join(dir, output.SummaryFile))
	if !strings.Contains(string(sum), `"seed": 3`) {
		t.Errorf("summary.json meta:\n%s", sum)
	}
}

func TestRunOutIsAFile(t *testing.T) {
	parent := t.TempDir()
	file := filepath.Join(parent, "out")
	os.WriteFile(file, []byte("keep me"), 0o644)
	_, stderr, code := ddlsim(t, "run", "--out", file, good)
	if code != 2 || !strings.Contains(stderr, "not a directory") {
		t.Errorf("exit %d, stderr %q", code, stderr)
	}
	if b, _ := os.ReadFile(file); string(b) != "keep me" {
		t.Error("the file was modified")
	}
	entries, _ := os.ReadDir(parent)
	if len(entries) != 1 {
		t.Errorf("half-written result left behind: %v", entries)
	}
}

func TestListAndVersion(t *testing.T) {
	t.Chdir("../..") // list reads scenarios/profiles relative to the working directory
	stdout, _, code := ddlsim(t, "list")
	if code != 0 {
		t.Fatalf("exit %d", code)
	}
	for _, want := range []string{"policies", "oltp_read_write", "zipfian", "create_index", "lognormal", "hardware profiles"} {
		if !strings.Contains(stdout, want) {
			t.Errorf("list lacks %q:\n%s", want, stdout)
		}
	}
	stdout, _, code = ddlsim(t, "version")
	if code != 0 || !strings.HasPrefix(stdout, "ddlsim "+output.Release) {
		t.Errorf("version: exit %d: %s", code, stdout)
	}
}

func TestProgress(t *testing.T) {
	var errOut bytes.Buffer
	now := time.Unix(0, 0)
	e := &env{stderr: &errOut, stderrTTY: true, now: func() time.Time { return now }}
	p := newProgress(e)
	p.update(1e9, 10e9)
	if errOut.Len() != 0 {
		t.Errorf("bar drawn before 2s: %q", errOut.String())
	}
	now = now.Add(3 * time.Second)
	p.update(5e9, 10e9)
	if !strings.Contains(errOut.String(), " 50%") {
		t.Errorf("bar not drawn after 2s: %q", errOut.String())
	}
	p.clear()
	if !strings.HasSuffix(errOut.String(), "\r\033[K") {
		t.Errorf("bar not cleared: %q", errOut.String())
	}

	// A non-terminal gets a plain line every 30 s of wall time, none before.
	errOut.Reset()
	e.stderrTTY = false
	p = newProgress(e)
	now = now.Add(29 * time.Second)
	p.update(2e9, 10e9)
	if errOut.Len() != 0 {
		t.Errorf("line before 30 s on a non-terminal: %q", errOut.String())
	}
	now = now.Add(time.Second)
	p.update(5e9, 10e9)
	now = now.Add(10 * time.Second)
	p.update(6e9, 10e9) // 10 s later: no line
	now = now.Add(20 * time.Second)
	p.update(7e9, 10e9)
	want := "progress:  50%  5s/10s virtual  30s wall\nprogress:  70%  7s/10s virtual  1m0s wall\n"
	if errOut.String() != want || strings.Contains(errOut.String(), "\r") {
		t.Errorf("non-terminal progress:\n%q\nwant\n%q", errOut.String(), want)
	}
	p.clear()
	if errOut.String() != want {
		t.Errorf("clear wrote to a non-terminal: %q", errOut.String())
	}
}

func TestIntervalLine(t *testing.T) {
	s := &metrics.Series{Columns: []string{"time_s", "tps", "qps", "reads_per_s", "writes_per_s", "other_per_s", "iud_per_s", "lat_p95_ms", "unknown_thing", "ddl_active"}}
	row := []float64{10, 1834.07, 36679.39, 25675.77, 7335.48, 3668.14, 7335.48, 24.38, 5, 1}
	want := "[ 10s ] tps: 1834.07 qps: 36679.39 (r/w/o: 25675.77/7335.48/3668.14) iud/s: 7335 lat (ms,95%): 24.38 ddl: 1"
	if got := intervalLine(s, row); got != want {
		t.Errorf("got  %q\nwant %q", got, want)
	}
	s = &metrics.Series{Columns: []string{"time_s", "tps", "reads_per_s"}}
	if got := intervalLine(s, []float64{0.5, 10, 3}); got != "[ 0.5s ] tps: 10.00" {
		t.Errorf("partial columns: %q", got)
	}
}

// reportEmbedsPlots checks that dir/report.html embeds every PNG of dir/plots, byte for byte,
// as a data: URI with the figure's name, and refers to nothing else.
func reportEmbedsPlots(t *testing.T, dir string) {
	t.Helper()
	raw, err := os.ReadFile(filepath.Join(dir, "report.html"))
	if err != nil {
		t.Fatal(err)
	}
	page := []byte(html.UnescapeString(string(raw))) // attribute values are HTML-escaped ('+' is &#43;)
	pngs, _ := filepath.Glob(filepath.Join(dir, "plots", "*.png"))
	if len(pngs) == 0 {
		t.Fatalf("%s/plots has no PNG", dir)
	}
	for _, f := range pngs {
		if _, err := os.Stat(strings.TrimSuffix(f, ".png") + ".svg"); err != nil {
			t.Errorf("no SVG next to %s", f)
		}
		b, _ := os.ReadFile(f)
		name := strings.TrimSuffix(filepath.Base(f), ".png")
		if !bytes.Contains(page, []byte(`src="data:image/png;base64,`+base64.StdEncoding.EncodeToString(b)+`"`)) {
			t.Errorf("report does not embed %s", f)
		}
		if !bytes.Contains(page, []byte(`alt="`+name+`"`)) {
			t.Errorf("report does not name %s", name)
		}
	}
	if n := bytes.Count(page, []byte("<img ")); n != len(pngs) {
		t.Errorf("report has %d images, plots/ has %d PNGs", n, len(pngs))
	}
	if m := regexp.MustCompile(`(src|href)="[^d#][^"]*"`).Find(page); m != nil {
		t.Errorf("report refers to an outside file: %s", m)
	}
}

func TestRunPlotAndReport(t *testing.T) {
	root := t.TempDir()
	plotted := filepath.Join(root, "plotted")
	stdout, stderr, code := ddlsim(t, "run", "--quiet", "--plot", "--out", plotted, small)
	if code != 0 {
		t.Fatalf("--plot: exit %d: %s", code, stderr)
	}
	for _, f := range []string{output.SummaryFile, "plots/throughput.png", "plots/throughput.svg"} {
		if _, err := os.Stat(filepath.Join(plotted, f)); err != nil {
			t.Errorf("--plot: %v", err)
		}
	}
	if _, err := os.Stat(filepath.Join(plotted, "report.html")); err == nil {
		t.Error("--plot alone wrote a report")
	}
	if !strings.Contains(stdout, "figures: "+filepath.Join(plotted, "plots")) {
		t.Errorf("--plot stdout:\n%s", stdout)
	}

	reported := filepath.Join(root, "reported")
	stdout, stderr, code = ddlsim(t, "run", "--quiet", "--report", "--out", reported, "--seed", "7", small)
	if code != 0 {
		t.Fatalf("--report: exit %d: %s", code, stderr)
	}
	if !strings.Contains(stdout, "report: "+filepath.Join(reported, "report.html")) {
		t.Errorf("--report stdout:\n%s", stdout)
	}
	reportEmbedsPlots(t, reported)
	html, _ := os.ReadFile(filepath.Join(reported, "report.html"))
	cfg, _ := os.ReadFile(filepath.Join(reported, output.ConfigFile))
	hash := regexp.MustCompile(`config=([0-9a-f]{16})`).FindSubmatch(cfg)
	for _, want := range []string{"run of cli-small", "ddlsim run --seed 7 " + small + " --out " + reported + " --report",
		"DDL statements", "create_index", "innodb_buffer_pool_size", string(hash[1])} {
		if !strings.Contains(string(html), want) {
			t.Errorf("report lacks %q", want)
		}
	}

	// Without --out there is nowhere to put them: a usage error before anything runs.
	for _, flag := range []string{"--plot", "--report"} {
		stdout, stderr, code := ddlsim(t, "run", flag, small)
		if code != 2 || !strings.Contains(stderr, "--out") || stdout != "" {
			t.Errorf("%s without --out: exit %d, stdout %q, stderr %q", flag, code, stdout, stderr)
		}
	}
}

func TestCheckSweepSpecs(t *testing.T) {
	specs, _ := filepath.Glob("../../scenarios/create-index-options/*.sweep.yaml")
	specs = append(specs, "../../scenarios/sweeps/ci-small.yaml", "../../scenarios/sweeps/pool-size.yaml")
	if len(specs) < 4 {
		t.Fatalf("specs: %v", specs)
	}
	stdout, stderr, code := ddlsim(t, append([]string{"check", good}, specs...)...)
	if code != 0 {
		t.Fatalf("exit %d:\n%s", code, stderr)
	}
	for _, f := range specs {
		if !strings.Contains(stdout, "ok: "+f+" (sweep spec: ") {
			t.Errorf("no ok line for %s:\n%s", f, stdout)
		}
	}
	if !strings.Contains(stdout, "ok: ../../scenarios/sweeps/ci-small.yaml (sweep spec: 6 points × 2 seeds)\n") {
		t.Errorf("ci-small:\n%s", stdout)
	}

	// Problems in the spec itself, each at its line.
	dir := t.TempDir()
	write := func(name, text string) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	tiny, _ := filepath.Abs("../../scenarios/sweeps/tiny.yaml")
	bad := write("bad.yaml", "base: "+tiny+"\nseeds: 0\naxes:\n  - grid:\n      seed: [1, 2]\nextra: 1\n")
	_, stderr, code = ddlsim(t, "check", bad)
	if code != 2 || strings.Contains(stderr, "ddlsim:") {
		t.Errorf("bad spec: exit %d\n%s", code, stderr)
	}
	for _, want := range []string{bad + ":2: seeds:", bad + ":5: seed: cannot be an axis", bad + ":6: extra: unknown field"} {
		if !strings.Contains(stderr, want) {
			t.Errorf("bad spec: stderr lacks %q:\n%s", want, stderr)
		}
	}

	// Bad swept values: each reported once, at its line and column, with the points it breaks;
	// the good file next to it is still ok.
	vals := write("values.yaml", "name: v\nbase: "+tiny+"\naxes:\n  - grid:\n      policy: [fullscan, lazy]\n"+
		"      mysql.innodb_buffer_pool_size: [512MiB, 12 parsecs]\n  - points:\n      - {duration: 20s}\n      - {no.such.path: 3}\n")
	stdout, stderr, code = ddlsim(t, "check", vals, good)
	if code != 2 || !strings.HasPrefix(stdout, "ok: "+good+"\n  estimate: ") || strings.Count(stdout, "ok: ") != 1 {
		t.Errorf("bad values: exit %d, stdout %q", code, stdout)
	}
	lines := strings.Split(strings.TrimSpace(stderr), "\n")
	want := []string{
		vals + `:6:47: mysql.innodb_buffer_pool_size: bad value "12 parsecs": `,
		vals + `:9:10: no.such.path: unknown key "no"`,
	}
	if len(lines) != len(want) {
		t.Fatalf("want %d lines, got:\n%s", len(want), stderr)
	}
	for i, w := range want {
		if !strings.HasPrefix(lines[i], w) {
			t.Errorf("line %d = %q, want prefix %q", i, lines[i], w)
		}
	}
	if !strings.HasSuffix(lines[0], "(points 2, 3, 6, 7 — 4 of 8)") {
		t.Errorf("points of the bad size: %q", lines[0])
	}

	// A missing base is reported at the base: line; --set applies to the base scenario.
	nobase := write("nobase.yaml", "name: n\nseeds: 2\nbase: no-such.yaml\n")
	if _, stderr, code := ddlsim(t, "check", nobase); code != 2 || !strings.HasPrefix(stderr, nobase+":3: base: ") {
		t.Errorf("missing base: exit %d, %q", code, stderr)
	}
	if _, stderr, code := ddlsim(t, "check", specs[len(specs)-1], "--set", "duration=forever"); code != 2 || !strings.Contains(stderr, `--set: duration: bad value "forever"`) {
		t.Errorf("--set on a spec: exit %d, %q", code, stderr)
	}
}
