package config_test

import (
	"strings"
	"testing"

	. "github.com/ddlsim/ddlsim/model/config"
)

const mysqlScenario = `name: t
seed: 1
hardware: 8c-64g
mysql:
%s
data:
  - {name: sbtest, tables: 1, rows: 10k}
warm: {whole_working_set: true}
duration: 2s
workload:
  - sysbench: {mix: oltp_read_only, threads: 2, tables: sbtest}
`

func mysqlYAML(block string) []byte {
	return []byte(strings.Replace(mysqlScenario, "%s", block, 1))
}

// A my.cnf section pasted into mysql: reads as the server reads it.
func TestMySQLSpellings(t *testing.T) {
	sc, err := LoadBytesWith("t.yaml", mysqlYAML(`  innodb-buffer-pool-size: 2G
  INNODB_OLD_BLOCKS_TIME: 500
  lock-wait-timeout: 50
  innodb_io_capacity: 2K
  innodb_log_file_size: 268435456
  innodb-adaptive-hash-index: OFF
  innodb_max_dirty_pages_pct: 75.5
  innodb_flush_method: O_DIRECT
  max-connections: 500
  loose-some-plugin-thing: 1
  sync_binlog: 1`), "testdata", []string{"mysql.innodb-lru-scan-depth=2K", "mysql.performance_schema=ON"}, nil)
	if err != nil {
		t.Fatal(err)
	}
	m := sc.MySQL
	if m.BufferPoolSize != 2*GiB || m.OldBlocksTime != 500*Millisecond || m.LockWaitTimeout != 50*Second ||
		m.IOCapacity != 2048 || m.LogFileSize != 256*MiB || *m.AdaptiveHashIndex || m.MaxDirtyPagesPct != 75.5 ||
		m.LRUScanDepth != 2048 || m.SyncBinlog == nil || *m.SyncBinlog != 1 {
		t.Errorf("mysql read as %+v", m)
	}
	if len(sc.Warnings) != 1 {
		t.Fatalf("want one warning listing the ignored variables, got %v", sc.Warnings)
	}
	w := sc.Warnings[0].Warning()
	for _, want := range []string{"t.yaml:12:3: warning: mysql.innodb_flush_method:", "4 MySQL variables",
		"innodb_flush_method, max_connections, performance_schema, some_plugin_thing"} {
		if !strings.Contains(w, want) {
			t.Errorf("warning %q lacks %q", w, want)
		}
	}
	// Ignored variables are not configuration: the hash is that of the file without them.
	plain, err := LoadBytesWith("t.yaml", mysqlYAML(`  innodb_buffer_pool_size: 2GiB
  innodb_old_blocks_time: 500ms
  lock_wait_timeout: 50s
  innodb_io_capacity: 2048
  innodb_log_file_size: 256MiB
  innodb_adaptive_hash_index: off
  innodb_max_dirty_pages_pct: 75.5
  innodb_lru_scan_depth: 2048
  sync_binlog: 1`), "testdata", nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	if Hash(sc) != Hash(plain) {
		a, _ := Marshal(sc)
		b, _ := Marshal(plain)
		t.Errorf("MySQL spellings change the configuration:\n%s\n---\n%s", a, b)
	}
}

func TestMySQLMistakes(t *testing.T) {
	for _, c := range []struct{ block, want string }{
		{"  innodb_bufer_pool_size: 1G", "t.yaml:5:3: mysql.innodb_bufer_pool_size: unknown MySQL variable (did you mean innodb_buffer_pool_size?)"},
		{"  max_conections: 10", "mysql.max_conections: unknown MySQL variable (did you mean max_connections? a real variable the model does not use"},
		{"  innodb_log_file_size: 1G\n  innodb-log-file-size: 2G", "t.yaml:6:3: mysql.innodb_log_file_size: duplicate variable (first given on line 5"},
		{"  innodb_old_blocks_time: 1.5", "missing unit"},
		{"  innodb_io_capacity: 2X", "expected an integer"},
		{"  frobnicate: 1", "unknown MySQL variable: the model reads version, innodb_buffer_pool_size"},
	} {
		errs := loadErrs(t, "t.yaml", string(mysqlYAML(c.block)))
		if !strings.Contains(errs.Error(), c.want) {
			t.Errorf("%q: got\n%v\nwant %q", c.block, errs, c.want)
		}
	}
	if _, err := LoadBytesWith("t.yaml", mysqlYAML("  version: 8.0.18"), "testdata", []string{"mysql.innodb_bufer_pool_size=1G"}, nil); err == nil ||
		!strings.Contains(err.Error(), "did you mean innodb_buffer_pool_size?") {
		t.Errorf("--set of a mistyped variable: %v", err)
	}
}

// The table of real names holds every variable the model reads that MySQL has (a check that
// it is a list of server variables at all), and no ddlsim field names.
func TestServerVariableTable(t *testing.T) {
	own := map[string]bool{"version": true, "alter_table_progress": true} // ddlsim's own keys
	for _, f := range MySQLFields() {
		if !own[f] && !IsServerVariable(f) {
			t.Errorf("%s is read by the model but not in mysqlvars.txt", f)
		}
	}
	for _, name := range []string{"innodb_flush_method", "max_connections", "innodb-redo-log-capacity", "binlog_format",
		"innodb_buffer_pool_dump_pct", "rpl_semi_sync_master_enabled", "aria_pagecache_buffer_size"} {
		if !IsServerVariable(name) {
			t.Errorf("%s is a real server variable", name)
		}
	}
	for _, name := range []string{"frobnicate", "innodb_bufer_pool_size", "alter_table_progress", "duration"} {
		if IsServerVariable(name) {
			t.Errorf("%s is not a server variable", name)
		}
	}
	if NativeUnit("innodb-old-blocks-time") != "ms" || NativeUnit("lock_wait_timeout") != "s" || NativeUnit("innodb_buffer_pool_size") != "" {
		t.Error("native units")
	}
}
