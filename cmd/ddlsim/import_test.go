package main

import (
	"encoding/json"
	"math"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// A stock MySQL 8.0 my.cnf of a production shape (testdata/import/my.cnf: 73 [mysqld]
// settings, hyphens, comments, other groups), with the server's SHOW GLOBAL VARIABLES and
// STATUS and its lscpu, free -b and lsblk, imports into a scenario that loads and runs, and
// the variables the model does not use are listed (issue 16, "Done when").
func TestImportMyCnf(t *testing.T) {
	td, err := filepath.Abs("testdata/import")
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	args := []string{"import", "--out", dir, "--name", "prod",
		"--variables", filepath.Join(td, "variables.tsv"), "--status", filepath.Join(td, "status.tsv"),
		"--lscpu", filepath.Join(td, "lscpu.txt"), "--free", filepath.Join(td, "free.txt"), "--lsblk", filepath.Join(td, "lsblk.txt"),
		filepath.Join(td, "my.cnf")}
	out, stderr, code := ddlsim(t, args...)
	if code != 0 {
		t.Fatalf("import: exit %d\n%s%s", code, out, stderr)
	}
	// Every [mysqld] setting of the file is accounted for: read by the model, or listed.
	cnf, _ := os.ReadFile(filepath.Join(td, "my.cnf"))
	n := 0
	inMysqld := false
	for _, line := range strings.Split(string(cnf), "\n") {
		if strings.HasPrefix(line, "[") {
			inMysqld = line == "[mysqld]"
		} else if inMysqld && regexp.MustCompile(`^[a-z]`).MatchString(line) {
			n++
		}
	}
	if n < 40 {
		t.Fatalf("the test my.cnf has %d [mysqld] settings, want 40+", n)
	}
	used := regexp.MustCompile(`mysql: (\d+) variables the model reads`).FindStringSubmatch(out)
	ignored := regexp.MustCompile(`ignored: (\d+) real server variables`).FindStringSubmatch(out)
	if used == nil || ignored == nil || used[1] != "20" || ignored[1] != "55" || strings.Contains(out, "unknown:") || n != 20-2+55 {
		// 18 from the file (innodb_online_alter_log_max_size, innodb_purge_threads, log-bin and sync_binlog among them), innodb_old_blocks_pct and innodb_page_size from SHOW VARIABLES
		t.Errorf("import summary (my.cnf has %d settings):\n%s", n, out)
	}
	for _, want := range []string{"innodb_flush_method", "max_connections", "binlog_format", "rpl_semi_sync_source_enabled", "innodb_lock_wait_timeout"} {
		if !strings.Contains(ignored[0]+out[strings.Index(out, "ignored:"):], want) {
			t.Errorf("ignored list lacks %s", want)
		}
	}
	scen, _ := os.ReadFile(filepath.Join(dir, "prod.yaml"))
	if !regexp.MustCompile(`(?m)^  log_bin: on .*log-bin\s+= /var/lib/mysql/binlog/mysql-bin`).Match(scen) {
		t.Errorf("my.cnf's log-bin=basename is not imported as log_bin: on:\n%s", scen)
	}
	prof, _ := os.ReadFile(filepath.Join(dir, "prod-profile.yaml"))
	for _, want := range []string{
		`version: "8.0.36"`,
		"innodb_buffer_pool_size: 48GiB   # variables.tsv:4",
		"innodb_old_blocks_time: 1s",
		"lock_wait_timeout: 1h",
		"innodb_adaptive_hash_index: off",
		"innodb_sort_buffer_size: 64MiB   # my.cnf:75: innodb_sort_buffer_size         = 64M",
		"  innodb_flush_method: O_DIRECT\n",
		"warm: {fill: 0.969, dirty: 0.02}",
		"threads: 7, tables: sbtest, rate: 73.756",
		"threads: 17, tables: rest, rate: 212.024",
	} {
		if !strings.Contains(string(scen), want) {
			t.Errorf("scenario lacks %q", want)
		}
	}
	for _, want := range []string{"base: 16c-128g-nvme", "cores: 16", "memory: 63394MiB", "llc: 54MiB", "data: nvme"} {
		if !strings.Contains(string(prof), want) {
			t.Errorf("profile lacks %q:\n%s", want, prof)
		}
	}

	// It runs (a short cap instead of until the DDL is done), and the load's warning lists
	// the ignored variables.
	out, stderr, code = ddlsim(t, "run", "--quiet", "--set", "duration=3s", "--set", "until.after=1s", "--set", "warmup=1s",
		"--set", "schedule[0].at=1s", filepath.Join(dir, "prod.yaml"))
	if code != 0 || !strings.Contains(out, "hardware: prod (16 cores, 63394MiB)") || !strings.Contains(out, "pool: 48GiB x 16") {
		t.Fatalf("run: exit %d\n%s%s", code, out, stderr)
	}
	if !strings.Contains(stderr, "warning: mysql.user: 55 MySQL variables the model does not use are ignored") ||
		!strings.Contains(stderr, "innodb_flush_method, innodb_lock_wait_timeout") {
		t.Errorf("run warnings:\n%s", stderr)
	}

	// The files are not replaced without --force.
	if _, stderr, code := ddlsim(t, args...); code != 2 || !strings.Contains(stderr, "exists: give --force") {
		t.Errorf("second import: exit %d\n%s", code, stderr)
	}
	if _, _, code := ddlsim(t, append([]string{"import", "--force"}, args[1:]...)...); code != 0 {
		t.Errorf("import --force: exit %d", code)
	}
	// my.cnf alone: the version is unknown and said so; the profile is the base's.
	out, _, code = ddlsim(t, "import", "--out", dir, "--name", "bare", filepath.Join(td, "my.cnf"))
	if code != 0 || !strings.Contains(out, "note: version: no SHOW GLOBAL VARIABLES output") || !strings.Contains(out, "note: cores: no lscpu output") {
		t.Errorf("my.cnf alone: exit %d\n%s", code, out)
	}
	if _, stderr, code := ddlsim(t, "import"); code != 2 || !strings.Contains(stderr, "needs a my.cnf or --variables") {
		t.Errorf("no input: exit %d\n%s", code, stderr)
	}
}

// Issue 28 item 5 through the CLI: an unreadable value of a variable the model uses, a NUL
// byte, lscpu's CPU(s): -8 and memory below the pool are exit 2 naming the file and line,
// before anything is written; --lenient imports the unreadable value as the default, with a
// warning that names it.
func TestImportRefusesWhatItCannotRead(t *testing.T) {
	dir := t.TempDir()
	write := func(name, text string) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	cnf := write("bad.cnf", "[mysqld]\ninnodb_buffer_pool_size = 96Gb\ninnodb_io_capacity = 1e99\n")
	out := filepath.Join(dir, "out")
	for _, c := range []struct {
		args []string
		want []string
	}{
		{[]string{cnf}, []string{`bad.cnf:2: innodb_buffer_pool_size = "96Gb": unknown size unit "Gb"`, `bad.cnf:3: innodb_io_capacity = "1e99"`, "--lenient"}},
		{[]string{"--variables", write("v.tsv", "version\t8.0.36\nsql_mode\tSTRICT\x00\n")}, []string{"v.tsv:2:16: control character U+0000"}},
		{[]string{"--lscpu", write("lscpu.txt", "Architecture: x86_64\nCPU(s): -8\n"), write("ok.cnf", "[mysqld]\ninnodb_buffer_pool_size=1G\n")}, []string{"lscpu.txt:2: CPU(s): -8 is not a count of hardware threads"}},
		{[]string{"--free", write("free.txt", "       total\nMem:   8589934592 1\n"), write("big.cnf", "[mysqld]\ninnodb_buffer_pool_size=96G\n")}, []string{"free.txt:2: Mem: total 8GiB is below innodb_buffer_pool_size 96GiB (big.cnf:2)"}},
	} {
		stdout, stderr, code := ddlsim(t, append([]string{"import", "--out", out}, c.args...)...)
		for _, w := range c.want {
			if code != 2 || !strings.Contains(stderr, w) {
				t.Errorf("import %v: exit %d, want 2 with %q\n%s%s", c.args, code, w, stdout, stderr)
			}
		}
		if strings.Contains(stdout, "no lscpu output") {
			t.Errorf("a refused lscpu is not a missing one:\n%s", stdout)
		}
		if _, err := os.Stat(out); err == nil {
			t.Fatalf("import %v wrote files before refusing", c.args)
		}
	}
	stdout, stderr, code := ddlsim(t, "import", "--lenient", "--out", out, cnf)
	if code != 0 || !strings.Contains(stderr, `warning: bad.cnf:2: innodb_buffer_pool_size = "96Gb": unknown size unit "Gb"`) ||
		!strings.Contains(stderr, "left out: the default 128MiB (8.0.18) is simulated") {
		t.Errorf("--lenient: exit %d\n%s%s", code, stdout, stderr)
	}
}

// Issue 24 item 2: SHOW GLOBAL STATUS sets an open-loop rate the simulation serves within 10 %
// of the server's statements/s (Questions / Uptime), the warm fill from the pool's data
// pages; --tables gives the data groups of the dump's sizes and row sizes; a 96 GB pool with
// no hardware files imports into a scenario that loads.
func TestImportReadsTheServer(t *testing.T) {
	td, _ := filepath.Abs("testdata/import")
	dir := t.TempDir()
	out, stderr, code := ddlsim(t, "import", "--out", dir, "--name", "traffic", "--variables", filepath.Join(td, "variables.tsv"),
		"--status", filepath.Join(td, "status.tsv"), filepath.Join(td, "my.cnf"))
	if code != 0 {
		t.Fatalf("import: exit %d\n%s%s", code, out, stderr)
	}
	scen := filepath.Join(dir, "traffic.yaml")
	text, _ := os.ReadFile(scen)
	for _, want := range []string{"warm: {fill: 0.969, dirty: 0.02}", "5715.6 statements/s", "rate: 212.024",
		`observed: {statements_per_s: 5715.592, source: "SHOW GLOBAL STATUS: Questions / Uptime = 9876543210 / 1728000 s"}`} {
		if !strings.Contains(string(text), want) {
			t.Errorf("scenario lacks %q:\n%s", want, text)
		}
	}
	observed := 9876543210.0 / 1728000 // status.tsv: Questions / Uptime
	runDir := filepath.Join(dir, "run")
	stdout, stderr, code := ddlsim(t, "run", "--quiet", "--out", runDir, "--set", "duration=6s", "--set", "until.after=1s", "--set", "warmup=2s",
		"--set", "schedule[0].at=5s", scen)
	if code != 0 {
		t.Fatalf("run: exit %d\n%s", code, stderr)
	}
	// Issue 24 item 3: the trust line names the constants carried over from the base, and
	// the validation record of ADD INDEX on MySQL 8.0; summary.json has the block.
	if !regexp.MustCompile(`(?m)^trust: profile traffic: .*\d+ carried over from 8c-64g \(.*; validation: ADD INDEX on MySQL 8\.0: its duration within [0-9.]+–[0-9.]+× of measured \(\d+ points\)`).MatchString(stdout) {
		t.Errorf("run's trust line:\n%s", stdout)
	}
	var sum struct {
		Summary struct {
			QPS float64 `json:"qps_mean"`
		} `json:"summary"`
		Trust struct {
			Profile   string `json:"profile"`
			Constants []struct {
				Name, Origin, From, Status string
			} `json:"constants"`
			Validation []map[string]any `json:"validation"`
			Observed   struct {
				Observed   float64 `json:"statements_per_s_observed"`
				WithinBand bool    `json:"within_band"`
			} `json:"observed"`
		} `json:"trust"`
	}
	b, _ := os.ReadFile(filepath.Join(runDir, "summary.json"))
	if err := json.Unmarshal(b, &sum); err != nil {
		t.Fatal(err)
	}
	if r := sum.Summary.QPS / observed; r < 0.9 || r > 1.1 {
		t.Errorf("simulated %.0f statements/s, observed %.0f: not within 10%%", sum.Summary.QPS, observed)
	}
	// The open loop at the observed rate is within the band: no warning.
	if o := sum.Trust.Observed; math.Abs(o.Observed-observed) > 0.001 || !o.WithinBand || strings.Contains(stderr, "observed.statements_per_s") {
		t.Errorf("trust.observed %+v, stderr:\n%s", o, stderr)
	}
	carried := 0
	for _, c := range sum.Trust.Constants {
		if c.Name == "costs.page_hit" && (c.Origin != "carried_over" || c.From != "8c-64g" || c.Status != "fitted") {
			t.Errorf("costs.page_hit in summary.json: %+v", c)
		}
		if c.Origin == "carried_over" {
			carried++
		}
	}
	if sum.Trust.Profile != "traffic" || carried < 20 || len(sum.Trust.Validation) == 0 {
		t.Errorf("summary.json trust: %+v", sum.Trust)
	}
	for _, k := range []string{"statement", "server", "stat", "points", "min_ratio", "max_ratio", "scenarios"} {
		if _, ok := sum.Trust.Validation[0][k]; !ok {
			t.Errorf("validation record lacks %s: %v", k, sum.Trust.Validation[0])
		}
	}
	// compare prints the same line and writes trust.json into its results.
	cmpDir := filepath.Join(dir, "cmp")
	stdout, stderr, code = ddlsim(t, "compare", "--seeds", "1", "--policies", "lazy", "--out", cmpDir, "--set", "duration=4s", "--set", "until.after=1s",
		"--set", "warmup=1s", "--set", "schedule[0].at=3s", scen)
	if code != 0 || !strings.Contains(stdout, "\ntrust: profile traffic: ") {
		t.Errorf("compare: exit %d\n%s%s", code, stdout, stderr)
	}
	if b, err := os.ReadFile(filepath.Join(cmpDir, "trust.json")); err != nil || !strings.Contains(string(b), `"origin": "carried_over"`) {
		t.Errorf("compare's trust.json: %v\n%s", err, b)
	}

	// --tables: the InnoDB tables of the user's schemas, largest first, with real sizes.
	out, stderr, code = ddlsim(t, "import", "--out", dir, "--name", "tables", "--variables", filepath.Join(td, "variables.tsv"),
		"--status", filepath.Join(td, "status.tsv"), "--tables", filepath.Join(td, "tables.tsv"), filepath.Join(td, "my.cnf"))
	if code != 0 {
		t.Fatalf("import --tables: exit %d\n%s%s", code, out, stderr)
	}
	text, _ = os.ReadFile(filepath.Join(dir, "tables.yaml"))
	for _, want := range []string{
		"- {name: orders, tables: 1, size: 60GiB, row_size: 189}   # tables.tsv:2: shop.orders DATA_LENGTH 64424509440",
		"- {name: order_items, tables: 1, size: 32GiB, row_size: 20}",
		"- {name: customers, tables: 1, size: 8GiB, row_size: 394}",
		"- {name: sessions, tables: 1, size: 12800KiB, row_size: 232}",
		"{at: 10s, ddl: create_index, table: orders, columns: [c]}",
	} {
		if !strings.Contains(string(text), want) {
			t.Errorf("scenario lacks %q:\n%s", want, text)
		}
	}
	if strings.Contains(string(text), "legacy_log") || strings.Contains(string(text), "name: user") {
		t.Errorf("MyISAM and system tables are not data groups:\n%s", text)
	}

	// --schema: the DDL's table gets its columns' sizes and index count, and the ADD INDEX
	// a column no index begins with (id leads the primary key, created_at and status an index).
	out, stderr, code = ddlsim(t, "import", "--out", dir, "--name", "schema", "--variables", filepath.Join(td, "variables.tsv"),
		"--status", filepath.Join(td, "status.tsv"), "--tables", filepath.Join(td, "tables.tsv"), "--schema", filepath.Join(td, "orders.sql"), filepath.Join(td, "my.cnf"))
	if code != 0 {
		t.Fatalf("import --schema: exit %d\n%s%s", code, out, stderr)
	}
	text, _ = os.ReadFile(filepath.Join(dir, "schema.yaml"))
	for _, want := range []string{
		"- {name: orders, tables: 1, size: 60GiB, row_size: 189, secondary_indexes: 2, columns: [{name: id, size: 8}, {name: customer_id, size: 4}, {name: status, size: 16}, {name: total, size: 6}, {name: created_at, size: 8}]}",
		"{at: 10s, ddl: create_index, table: orders, columns: [customer_id]}",
		"ADD INDEX on customer_id (int, 4 bytes)",
	} {
		if !strings.Contains(string(text), want) {
			t.Errorf("scenario lacks %q:\n%s", want, text)
		}
	}

	// A 96 GB pool, no hardware files: a base that holds it, a scenario that loads.
	cnf := filepath.Join(dir, "big.cnf")
	os.WriteFile(cnf, []byte("[mysqld]\ninnodb_buffer_pool_size = 96G\n"), 0o644)
	out, stderr, code = ddlsim(t, "import", "--out", dir, cnf)
	if code != 0 || !strings.Contains(out, "built on 16c-128g-nvme") || !strings.Contains(out, "holds the 96GiB pool") {
		t.Errorf("96 GB pool: exit %d\n%s%s", code, out, stderr)
	}
	if _, stderr, code := ddlsim(t, "check", filepath.Join(dir, "big.yaml")); code != 0 {
		t.Errorf("check: exit %d\n%s", code, stderr)
	}
	// An unreadable status counter is a problem at its line.
	bad := filepath.Join(dir, "status-bad.tsv")
	os.WriteFile(bad, []byte("Uptime\t100\nQuestions\t12e3\nThreads_running\t-1\n"), 0o644)
	if _, stderr, code := ddlsim(t, "import", "--out", filepath.Join(dir, "x"), "--status", bad, cnf); code != 2 ||
		!strings.Contains(stderr, `status-bad.tsv:2: questions = "12e3": expected a non-negative integer`) || !strings.Contains(stderr, "status-bad.tsv:3: threads_running") {
		t.Errorf("bad status: exit %d\n%s", code, stderr)
	}
}
