package mycnf

import (
	"strings"
	"testing"
)

func settings(t *testing.T, text string) (*File, map[string]Setting) {
	t.Helper()
	f, err := ParseMyCnf(strings.NewReader(text), "my.cnf")
	if err != nil {
		t.Fatal(err)
	}
	m := map[string]Setting{}
	for _, s := range f.Settings {
		m[s.Name] = s
	}
	return f, m
}

// MySQL's option-file rules: which groups the server reads, names, prefixes, values.
func TestParseMyCnf(t *testing.T) {
	f, m := settings(t, `# comment
; another
[client]
port = 3307
[mysqld]
innodb-buffer-pool-size = 2G   # trailing comment
INNODB_IO_CAPACITY=400
skip-name-resolve
skip-innodb-adaptive-hash-index
enable-performance-schema
skip-log-bin=0
loose-rpl-semi-sync-master-enabled = 1
maximum-sort-buffer-size = 64M
sql_mode = "STRICT_TRANS_TABLES,NO_ENGINE_SUBSTITUTION"   # quoted
init_connect = 'SET NAMES utf8mb4 # not a comment'
ft_boolean_syntax = "a\"b\\c\sd"
!include /etc/mysql/extra.cnf
[mysqld_safe]
nice = 0
[mysqld-8.0]
innodb_io_capacity = 800
[server]
max_connections = 10
[mariadb-10.11]
innodb_log_file_size = 1G
[mysqld-highprio]
port = 1
`)
	if got := strings.Join(f.Groups, ","); got != "mysqld,mysqld-8.0,server,mariadb-10.11" {
		t.Errorf("groups read: %s", got)
	}
	if got := strings.Join(f.Skipped, ","); got != "client,mysqld_safe,mysqld-highprio" {
		t.Errorf("groups skipped: %s", got)
	}
	if len(f.Includes) != 1 || !strings.Contains(f.Includes[0], "my.cnf:17: !include") {
		t.Errorf("includes: %v", f.Includes)
	}
	want := map[string]string{
		"innodb_buffer_pool_size":      "2G",
		"innodb_io_capacity":           "800", // the later group wins
		"skip_name_resolve":            "ON",  // a variable of its own name
		"innodb_adaptive_hash_index":   "OFF", // skip-X: X off
		"performance_schema":           "ON",
		"log_bin":                      "ON", // skip-log-bin=0 ... is a variable of its own (kept)
		"rpl_semi_sync_master_enabled": "1",
		"sort_buffer_size":             "64M",
		"sql_mode":                     "STRICT_TRANS_TABLES,NO_ENGINE_SUBSTITUTION",
		"init_connect":                 "SET NAMES utf8mb4 # not a comment",
		"ft_boolean_syntax":            `a"b\c d`,
		"max_connections":              "10",
		"innodb_log_file_size":         "1G",
	}
	delete(want, "log_bin")
	if s := m["skip_log_bin"]; s.Value != "0" {
		t.Errorf("skip_log_bin is a variable name of its own: %+v", s)
	}
	for k, v := range want {
		if m[k].Value != v {
			t.Errorf("%s = %q, want %q", k, m[k].Value, v)
		}
	}
	if _, ok := m["port"]; ok {
		t.Error("[client] and [mysqld-highprio] are not the server's groups")
	}
	if !m["rpl_semi_sync_master_enabled"].Loose || !m["sort_buffer_size"].Limit {
		t.Error("loose- and maximum- are kept as flags")
	}
	if m["innodb_buffer_pool_size"].Where != "my.cnf:6" {
		t.Errorf("where: %q", m["innodb_buffer_pool_size"].Where)
	}
	for _, bad := range []string{"[mysqld\nx=1", "[mysqld]\nfoo bar = 1", "[mysqld]\nx = 'open"} {
		if _, err := ParseMyCnf(strings.NewReader(bad), "my.cnf"); err == nil {
			t.Errorf("%q: want an error", bad)
		}
	}
}

func TestParseTable(t *testing.T) {
	for _, text := range []string{
		"Variable_name\tValue\ninnodb_buffer_pool_size\t134217728\nversion\t8.0.36\nversion_comment\tMySQL Community Server - GPL\n",
		"+-------------------------+-----------+\n| Variable_name | Value |\n+----+\n| innodb_buffer_pool_size | 134217728 |\n| version | 8.0.36 |\n| version_comment | MySQL Community Server - GPL |\n+----+\n3 rows in set (0.01 sec)\n",
	} {
		s, err := ParseTable(strings.NewReader(text), "v")
		if err != nil {
			t.Fatal(err)
		}
		if len(s) != 3 || s[0].Name != "innodb_buffer_pool_size" || s[0].Value != "134217728" || s[2].Value != "MySQL Community Server - GPL" {
			t.Errorf("%q: %+v", text, s)
		}
	}
}

func TestMachine(t *testing.T) {
	var m Machine
	if err := ParseLscpu(strings.NewReader("CPU(s):   16\nModel name: Xeon\nL3 cache:  54 MiB (1 instance)\n"), "lscpu", &m); err != nil {
		t.Fatal(err)
	}
	if err := ParseFree(strings.NewReader("  total used\nMem: 66473791488 1\nSwap: 0 0\n"), "free", &m); err != nil {
		t.Fatal(err)
	}
	if err := ParseLsblk(strings.NewReader("NAME MAJ:MIN RM SIZE RO TYPE MOUNTPOINTS\nsda 8:0 0 50G 0 disk\n└─sda1 8:1 0 50G 0 part /\nsdb 8:16 0 1T 0 disk /data\nsr0 11:0 1 1024M 0 rom\n"), "lsblk", &m); err != nil {
		t.Fatal(err)
	}
	if m.CPUs != 16 || m.Model != "Xeon" || m.L3 != 54<<20 || m.Memory != 66473791488 || len(m.Disks) != 2 || m.Disk.Name != "sdb" {
		t.Errorf("machine: %+v", m)
	}
	if _, err := cacheSize("36608K"); err != nil {
		t.Error(err)
	}
	if err := ParseFree(strings.NewReader("Mem: 63Gi 1Gi\n"), "free", &m); err == nil {
		t.Error("free -h output is not bytes")
	}
	for d, want := range map[Disk]string{
		{Name: "nvme0n1", Rotational: 0}: "nvme", {Name: "sda", Rotational: 1}: "hdd", {Name: "sda", Rotational: 0}: "sata-ssd",
		{Name: "vdb", Rotational: -1}: "cloud-block", {Name: "sdc", Tran: "nvme", Rotational: -1}: "nvme",
	} {
		if got := d.Preset(); got != want {
			t.Errorf("%+v: %s, want %s", d, got, want)
		}
	}
}

func TestServerVersion(t *testing.T) {
	for _, c := range []struct{ version, comment, want string }{
		{"8.0.36", "MySQL Community Server - GPL", "8.0.36"},
		{"5.7.44-log", "MySQL Community Server (GPL)", "5.7.44"},
		{"5.7.43-47", "Percona Server (GPL), Release 47", "percona-5.7.43"},
		{"8.0.35-27", "Percona Server (GPL), Release 27", "8.0.35"},
		{"10.11.6-MariaDB-0+deb12u1", "Debian 12", "mariadb-10.11.6"},
		{"10.6.16-MariaDB", "MariaDB Server", ""},
	} {
		got, note := serverVersion(map[string]Setting{"version": {Value: c.version}, "version_comment": {Value: c.comment}})
		if got != c.want {
			t.Errorf("%s (%s): %q (%s), want %q", c.version, c.comment, got, note, c.want)
		}
	}
}

// innodb_redo_log_capacity (8.0.30+) becomes the two variables the model reads.
func TestRedoLogCapacity(t *testing.T) {
	f, _ := settings(t, "[mysqld]\ninnodb_redo_log_capacity = 8G\ninnodb_buffer_pool_size = 1G\n")
	res, err := Build(Inputs{Name: "x", Cnf: f})
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(res.Scenario, "innodb_log_file_size: 4GiB") || !strings.Contains(res.Scenario, "innodb_log_files_in_group: 2") ||
		strings.Contains(res.Scenario, "innodb_redo_log_capacity:") {
		t.Errorf("redo capacity:\n%s", res.Scenario)
	}
}

// A MariaDB server: its own group, its version and policy; innodb_dedicated_server noted.
func TestBuildMariaDB(t *testing.T) {
	f, _ := settings(t, "[mariadb]\ninnodb_buffer_pool_size = 8G\ninnodb_dedicated_server = ON\naria_pagecache_buffer_size = 128M\nfrobnicate = 1\n")
	vars, err := ParseTable(strings.NewReader("version\t10.11.6-MariaDB-0+deb12u1\n"), "v")
	if err != nil {
		t.Fatal(err)
	}
	res, err := Build(Inputs{Name: "m", Cnf: f, Variables: vars})
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{`version: "mariadb-10.11.6"`, "policy: lazy", "innodb_buffer_pool_size: 8GiB   # my.cnf:2",
		"  aria_pagecache_buffer_size: 128M\n", "  # frobnicate = 1   (my.cnf:5)", "base: 8c-64g"} {
		if !strings.Contains(res.Scenario+res.Profile, want) {
			t.Errorf("lacks %q:\n%s", want, res.Scenario)
		}
	}
	if strings.Join(res.Unknown, ",") != "frobnicate" || strings.Join(res.Ignored, ",") != "innodb_dedicated_server,aria_pagecache_buffer_size" {
		t.Errorf("unknown %v, ignored %v", res.Unknown, res.Ignored)
	}
	// With SHOW VARIABLES given, dedicated_server's values are the running ones: no note.
	for _, n := range res.Notes {
		if strings.Contains(n, "innodb_dedicated_server") {
			t.Errorf("note with --variables: %s", n)
		}
	}
	res, _ = Build(Inputs{Name: "m", Cnf: f})
	if !strings.Contains(strings.Join(res.Notes, "\n"), "innodb_dedicated_server is on (my.cnf:3)") {
		t.Errorf("notes: %v", res.Notes)
	}
}
