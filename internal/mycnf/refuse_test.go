package mycnf

import (
	"errors"
	"fmt"
	"strings"
	"testing"
)

// Issue 28 item 5: a value the model cannot read, for a variable it uses, is an error at its
// line naming the default --lenient would simulate; under Lenient it is a warning naming that
// default and the scenario simulates it (the value is a comment, not a setting).
func TestUnreadableModelValues(t *testing.T) {
	cnf := "[mysqld]\ninnodb_buffer_pool_size = 96Gb\ninnodb_io_capacity = 1e99\ninnodb_lru_scan_depth = １０２４\nmax_connections = 96Gb\ninnodb_page_cleaners = 2\n"
	f, _ := settings(t, cnf)
	_, err := Build(Inputs{Name: "x", Cnf: f})
	var probs Problems
	if !errors.As(err, &probs) || len(probs) != 3 {
		t.Fatalf("want the 3 unreadable values at once (max_connections is not the model's), got %v", err)
	}
	for i, want := range []string{
		`my.cnf:2: innodb_buffer_pool_size = "96Gb": unknown size unit "Gb"`,
		`my.cnf:3: innodb_io_capacity = "1e99": expected an integer`,
		`my.cnf:4: innodb_lru_scan_depth = "１０２４": expected an integer`,
	} {
		if !strings.HasPrefix(probs[i], want) {
			t.Errorf("problem %d: %s\nwant it to begin %s", i, probs[i], want)
		}
	}
	if !strings.Contains(probs[0], "--lenient to simulate the default 128MiB") || !strings.Contains(probs[1], "default 200") || !strings.Contains(probs[2], "default 1024") {
		t.Errorf("each problem names the default --lenient simulates:\n%v", probs)
	}

	res, err := Build(Inputs{Name: "x", Cnf: f, Lenient: true})
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Warnings) != 3 || !strings.Contains(res.Warnings[0], "the default 128MiB (8.0.18) is simulated") {
		t.Errorf("warnings: %v", res.Warnings)
	}
	for _, line := range strings.Split(res.Scenario, "\n") {
		if strings.HasPrefix(line, "  innodb_buffer_pool_size:") || strings.HasPrefix(line, "  innodb_io_capacity:") || strings.HasPrefix(line, "  innodb_lru_scan_depth:") {
			t.Errorf("an unreadable value is written as a setting: %q", line)
		}
	}
	if !strings.Contains(res.Scenario, "  innodb_page_cleaners: 2   # my.cnf:6") || !strings.Contains(res.Scenario, "# innodb_buffer_pool_size: 96Gb   # my.cnf:2") {
		t.Errorf("scenario:\n%s", res.Scenario)
	}
	// The starting table is sized from the pool simulated (128 MiB), not the 96 GB intended.
	if !strings.Contains(res.Scenario, "size: 32MiB") {
		t.Errorf("data sized from the simulated pool:\n%s", res.Scenario)
	}

	// SHOW GLOBAL VARIABLES values go the same way (they win over my.cnf).
	vars, err := ParseTable(strings.NewReader("innodb_buffer_pool_size\t12e3x\nversion\t8.0.36\n"), "variables.tsv")
	if err != nil {
		t.Fatal(err)
	}
	_, err = Build(Inputs{Name: "x", Variables: vars})
	if err == nil || !strings.HasPrefix(err.Error(), `variables.tsv:1: innodb_buffer_pool_size = "12e3x"`) {
		t.Errorf("SHOW VARIABLES value: %v", err)
	}
}

// A NUL or other control byte is refused at its line and column in every input, with all
// such lines reported.
func TestControlBytes(t *testing.T) {
	_, err := ParseTable(strings.NewReader("innodb_io_capacity\t200\nsql_mode\tSTRICT\x00\nx\ty\x1b[0m\n"), "variables.tsv")
	if err == nil || !strings.Contains(err.Error(), "variables.tsv:2:16: control character U+0000") || !strings.Contains(err.Error(), "variables.tsv:3:4: control character U+001B") {
		t.Errorf("SHOW VARIABLES: %v", err)
	}
	if _, err := ParseMyCnf(strings.NewReader("[mysqld]\r\ninit_connect = 'a\x00b'\r\n"), "my.cnf"); err == nil || !strings.HasPrefix(err.Error(), "my.cnf:2:18: control character U+0000") {
		t.Errorf("my.cnf: %v", err)
	}
	// CRLF line ends are text, not control bytes; a TAB is allowed.
	if _, err := ParseMyCnf(strings.NewReader("[mysqld]\r\ninnodb_io_capacity\t= 400\r\n"), "my.cnf"); err != nil {
		t.Errorf("CRLF: %v", err)
	}
	// A C1 control (U+0094) is refused like a C0 one; a byte-order mark opening the file is
	// not a character of it.
	if _, err := ParseTable(strings.NewReader("version\t8.0.36\u0094\n"), "v.tsv"); err == nil || !strings.HasPrefix(err.Error(), "v.tsv:1:15: control character U+0094") {
		t.Errorf("C1: %v", err)
	}
	if s, err := ParseTable(strings.NewReader("\ufeffversion\t8.0.36\n"), "v.tsv"); err != nil || s[0].Name != "version" {
		t.Errorf("BOM: %v %+v", err, s)
	}
	if _, err := ParseTable(strings.NewReader("version\t8.0.\xff36\n"), "v.tsv"); err == nil || !strings.HasPrefix(err.Error(), "v.tsv:1:13: a byte that is not UTF-8") {
		t.Errorf("not UTF-8: %v", err)
	}
	var m Machine
	if err := ParseLscpu(strings.NewReader("CPU(s): 4\x00\n"), "lscpu.txt", &m); err == nil || !strings.Contains(err.Error(), "lscpu.txt:1:10: control character") {
		t.Errorf("lscpu: %v", err)
	}
	if err := ParseFree(strings.NewReader("Mem: \x07 1\n"), "free.txt", &m); err == nil || !strings.Contains(err.Error(), "free.txt:1:6: control character U+0007") {
		t.Errorf("free: %v", err)
	}
	if err := ParseLsblk(strings.NewReader("NAME ROTA\nsda\x01 0\n"), "lsblk.txt", &m); err == nil || !strings.Contains(err.Error(), "lsblk.txt:2:4: control character U+0001") {
		t.Errorf("lsblk: %v", err)
	}
}

// Implausible hardware values are errors at their line, not notes (lscpu CPU(s): -8 once
// gave "no lscpu output"), and memory below the pool is refused.
func TestImplausibleHardware(t *testing.T) {
	for text, want := range map[string]string{
		"Architecture: x86_64\nCPU(s): -8\n":     "lscpu.txt:2: CPU(s): -8 is not a count of hardware threads: expected 1 to 8192",
		"CPU(s): 0\n":                            "lscpu.txt:1: CPU(s): 0 is not a count",
		"CPU(s): 100000\n":                       "lscpu.txt:1: CPU(s): 100000 is not a count",
		"CPU(s): ８\n":                            `lscpu.txt:1: CPU(s): "８" is not a number`,
		"CPU(s): 8\nL3 cache: 99999999999 GiB\n": "lscpu.txt:2: L3 cache:",
		"Architecture: x86_64\n":                 "lscpu.txt: no CPU(s) line",
	} {
		var m Machine
		err := ParseLscpu(strings.NewReader(text), "lscpu.txt", &m)
		if err == nil || !strings.HasPrefix(err.Error(), want) {
			t.Errorf("%q: %v, want %s", text, err, want)
		}
	}
	for text, want := range map[string]string{
		"Mem: -1 0\n":                 "free.txt:1: Mem: total -1 is under 16 MiB",
		"Mem: 1e12 0\n":               `free.txt:1: Mem: total "1e12" is not a byte count`,
		"Mem: 999999999999999999 0\n": "free.txt:1: Mem: total 999999999999999999 is over 64 TiB",
	} {
		var m Machine
		if err := ParseFree(strings.NewReader(text), "free.txt", &m); err == nil || !strings.HasPrefix(err.Error(), want) {
			t.Errorf("%q: %v, want %s", text, err, want)
		}
	}
	var m Machine
	if err := ParseLsblk(strings.NewReader("NAME ROTA SIZE\nsda 2 1T\n"), "lsblk.txt", &m); err == nil || !strings.HasPrefix(err.Error(), `lsblk.txt:2: ROTA "2": expected 0 or 1`) {
		t.Errorf("lsblk ROTA: %v", err)
	}

	// Memory below the pool: the two files cannot be the same server's.
	f, _ := settings(t, "[mysqld]\ninnodb_buffer_pool_size = 96G\n")
	m = Machine{}
	if err := ParseFree(strings.NewReader("              total\nMem:    68719476736 1\n"), "free.txt", &m); err != nil {
		t.Fatal(err)
	}
	_, err := Build(Inputs{Name: "x", Cnf: f, Machine: &m})
	if err == nil || !strings.HasPrefix(err.Error(), "free.txt:2: Mem: total 64GiB is below innodb_buffer_pool_size 96GiB (my.cnf:2)") {
		t.Errorf("memory below the pool: %v", err)
	}
	// A CPU(s) line that was refused never turns into "no lscpu output".
	m = Machine{}
	if err := ParseLscpu(strings.NewReader("CPU(s): 16\n"), "lscpu.txt", &m); err != nil {
		t.Fatal(err)
	}
	res, err := Build(Inputs{Name: "x", Cnf: f, Machine: &m})
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(strings.Join(res.Notes, "\n"), "no lscpu output") || !strings.Contains(res.Profile, "cores: 16   # lscpu CPU(s)") {
		t.Errorf("notes %v\n%s", res.Notes, res.Profile)
	}
}

// SHOW CREATE TABLE: the \G form and the -B -N form (line breaks written \n) read the same;
// sizes are InnoDB's storage requirements; a file without a CREATE TABLE is refused.
func TestParseCreateTable(t *testing.T) {
	g := "Create Table: CREATE TABLE `shop`.`t` (\n  `a` bigint NOT NULL,\n  `b` decimal(12,2) DEFAULT NULL,\n  `c` varchar(40) NOT NULL,\n  `d` datetime(3),\n  `e` json,\n  PRIMARY KEY (`a`),\n  UNIQUE KEY `u` (`c`(10),`b`),\n  CONSTRAINT `f` FOREIGN KEY (`b`) REFERENCES `x` (`y`)\n) ENGINE=InnoDB\n"
	b := "t\t" + strings.ReplaceAll(strings.TrimPrefix(g, "Create Table: "), "\n", `\n`) + "\n"
	for _, text := range []string{g, b} {
		ct, err := ParseCreateTable(strings.NewReader(text), "t.sql")
		if err != nil {
			t.Fatal(err)
		}
		var sizes []string
		for _, c := range ct.Columns {
			sizes = append(sizes, fmt.Sprintf("%s=%d", c.Name, c.Size))
		}
		if ct.Name != "t" || strings.Join(sizes, " ") != "a=8 b=6 c=40 d=7 e=0" || len(ct.Indexes) != 2 || strings.Join(ct.Indexes[1].Columns, ",") != "c,b" || !ct.Indexes[0].Primary {
			t.Errorf("%q: %+v", text, ct)
		}
	}
	if _, err := ParseCreateTable(strings.NewReader("Table: t\n"), "t.sql"); err == nil || !strings.HasPrefix(err.Error(), "t.sql: no CREATE TABLE statement") {
		t.Errorf("no statement: %v", err)
	}
}
