package mycnf

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"gopkg.in/yaml.v3"
)

// The import's readers take whatever a user pastes. Each fuzz target feeds one input kind
// through its parser and then Build: no input may panic; a refusal is Problems whose every
// line begins with the input's file name (so the user can find it); and an accepted import
// writes a scenario and a profile that are YAML, with no control byte in them, whose mysql:
// block holds only values the model reads back.

const testdata = "../../cmd/ddlsim/testdata/import"

func seed(f *testing.F, name string) {
	if b, err := os.ReadFile(filepath.Join(testdata, name)); err == nil {
		f.Add(b)
	}
}

// checkRefusal: every problem names the file it is about.
func checkRefusal(t *testing.T, err error, files ...string) {
	t.Helper()
	var p Problems
	if !errors.As(err, &p) {
		t.Fatalf("a refusal is Problems, got %T: %v", err, err)
	}
	for _, line := range p {
		ok := false
		for _, f := range files {
			ok = ok || strings.HasPrefix(line, f+":")
		}
		if !ok {
			t.Errorf("a problem that names no input file (%v): %q", files, line)
		}
	}
}

// checkWritten: the scenario and profile are YAML without control bytes, and every
// mysql: key the model reads has a value it accepts.
func checkWritten(t *testing.T, res *Result) {
	t.Helper()
	for _, text := range []string{res.Scenario, res.Profile} {
		if _, col, bad := controlRune(strings.ReplaceAll(text, "\n", " ")); bad {
			t.Fatalf("control byte at %d in the written file:\n%q", col, text)
		}
		var v map[string]any
		if err := yaml.Unmarshal([]byte(text), &v); err != nil {
			t.Fatalf("the written file is not YAML: %v\n%s", err, text)
		}
	}
	var sc struct {
		MySQL map[string]any `yaml:"mysql"`
	}
	if err := yaml.Unmarshal([]byte(res.Scenario), &sc); err != nil {
		t.Fatal(err)
	}
	for _, name := range res.Used {
		if _, ok := sc.MySQL[name]; !ok {
			t.Errorf("%s is listed as used but not in mysql:", name)
		}
	}
}

func FuzzMyCnf(f *testing.F) {
	seed(f, "my.cnf")
	f.Add([]byte("[mysqld]\ninnodb_buffer_pool_size = 96Gb\nfrob = 'a\\nb: c'\nloose-x:y = 1\n"))
	f.Add([]byte("[mariadb-10.11]\ninnodb-io-capacity=１０\nskip-innodb-adaptive-hash-index\n!include x\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		cnf, err := ParseMyCnf(strings.NewReader(string(data)), "my.cnf")
		if err != nil {
			checkRefusal(t, err, "my.cnf")
			return
		}
		for _, lenient := range []bool{false, true} {
			res, err := Build(Inputs{Name: "x", Cnf: cnf, Lenient: lenient})
			if err != nil {
				checkRefusal(t, err, "my.cnf")
				if lenient {
					t.Fatalf("under Lenient a my.cnf alone is refused only for... nothing: %v", err)
				}
				continue
			}
			checkWritten(t, res)
		}
	})
}

// FuzzShowTable: the same text as SHOW GLOBAL VARIABLES and as SHOW GLOBAL STATUS.
func FuzzShowTable(f *testing.F) {
	seed(f, "variables.tsv")
	seed(f, "status.tsv")
	f.Add([]byte("| Variable_name | Value |\n| version | 10.11.6-MariaDB |\n| innodb_buffer_pool_size | 1e99 |\n2 rows in set\n"))
	f.Add([]byte("Threads_running\t-3\nInnodb_buffer_pool_pages_data\t5\nInnodb_buffer_pool_pages_total\t0\nQuestions\t9\nUptime\t0\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		table, err := ParseTable(strings.NewReader(string(data)), "show.tsv")
		if err != nil {
			checkRefusal(t, err, "show.tsv")
			return
		}
		cnf, _ := ParseMyCnf(strings.NewReader("[mysqld]\ninnodb_buffer_pool_size=1G\n"), "my.cnf")
		for _, in := range []Inputs{{Name: "x", Variables: table}, {Name: "x", Cnf: cnf, Status: table}, {Name: "x", Variables: table, Lenient: true}} {
			if in.Cnf == nil && len(table) == 0 {
				continue // nothing to import: a usage error, not a file's
			}
			res, err := Build(in)
			if err != nil {
				checkRefusal(t, err, "show.tsv", "my.cnf")
				continue
			}
			checkWritten(t, res)
		}
	})
}

// fuzzMachine runs one hardware input's parser and a Build with it.
func fuzzMachine(f *testing.F, file string, parse func(*strings.Reader, string, *Machine) error, check func(*testing.T, *Machine)) {
	cnf, _ := ParseMyCnf(strings.NewReader("[mysqld]\ninnodb_buffer_pool_size=1G\n"), "my.cnf")
	f.Fuzz(func(t *testing.T, data []byte) {
		var m Machine
		if err := parse(strings.NewReader(string(data)), file, &m); err != nil {
			checkRefusal(t, err, file)
			return
		}
		check(t, &m)
		res, err := Build(Inputs{Name: "x", Cnf: cnf, Machine: &m})
		if err != nil {
			checkRefusal(t, err, file, "my.cnf")
			return
		}
		checkWritten(t, res)
	})
}

func FuzzLscpu(f *testing.F) {
	seed(f, "lscpu.txt")
	f.Add([]byte("CPU(s): -8\nL3 cache: 32 MiB (1 instance)\n"))
	fuzzMachine(f, "lscpu.txt", func(r *strings.Reader, file string, m *Machine) error { return ParseLscpu(r, file, m) }, func(t *testing.T, m *Machine) {
		if m.CPUs < 1 || m.CPUs > maxCPUs || m.L3 < 0 || m.CPUsWhere == "" {
			t.Fatalf("accepted an implausible machine: %+v", m)
		}
	})
}

func FuzzFree(f *testing.F) {
	seed(f, "free.txt")
	f.Add([]byte("Mem: 1e12 0\nSwap: 0 0\n"))
	fuzzMachine(f, "free.txt", func(r *strings.Reader, file string, m *Machine) error { return ParseFree(r, file, m) }, func(t *testing.T, m *Machine) {
		if m.Memory < 1<<24 || m.Memory > maxMemory || m.MemoryWhere == "" {
			t.Fatalf("accepted an implausible memory: %+v", m)
		}
	})
}

func FuzzLsblk(f *testing.F) {
	seed(f, "lsblk.txt")
	f.Add([]byte("NAME MAJ:MIN RM SIZE RO TYPE MOUNTPOINTS\nsda 8:0 0 50G 0 disk\n└─sda1 8:1 0 50G 0 part /\n"))
	fuzzMachine(f, "lsblk.txt", func(r *strings.Reader, file string, m *Machine) error { return ParseLsblk(r, file, m) }, func(t *testing.T, m *Machine) {
		if len(m.Disks) == 0 || m.Disk.Name == "" || m.Disk.Rotational < -1 || m.Disk.Rotational > 1 {
			t.Fatalf("accepted lsblk without a disk: %+v", m)
		}
	})
}

// FuzzCreateTable: SHOW CREATE TABLE through its parser and an import with it.
func FuzzCreateTable(f *testing.F) {
	seed(f, "orders.sql")
	f.Add([]byte("t\tCREATE TABLE `t` (\\n  `a` int,\\n  KEY (`a`(3))\\n)\n"))
	cnf, _ := ParseMyCnf(strings.NewReader("[mysqld]\ninnodb_buffer_pool_size=1G\n"), "my.cnf")
	f.Fuzz(func(t *testing.T, data []byte) {
		ct, err := ParseCreateTable(strings.NewReader(string(data)), "t.sql")
		if err != nil {
			checkRefusal(t, err, "t.sql")
			return
		}
		for _, c := range ct.Columns {
			if c.Size < 0 || c.Size > 3072 {
				t.Fatalf("column %+v: a size outside 0..3072", c)
			}
		}
		res, err := Build(Inputs{Name: "x", Cnf: cnf, Schema: ct})
		if err != nil {
			checkRefusal(t, err, "t.sql", "my.cnf")
			return
		}
		checkWritten(t, res)
	})
}
