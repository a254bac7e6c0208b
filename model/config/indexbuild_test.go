package config_test

import (
	"os"
	"strings"
	"testing"

	. "github.com/ddlsim/ddlsim/model/config"
	"github.com/ddlsim/ddlsim/model/ddl"
	_ "github.com/ddlsim/ddlsim/model/runner" // links the DDL, workload and policy kinds
)

// The index-build options (issue 5): one_at_a_time, the MyRocks merge settings, the sort
// files' device capacity, the LLC and the page-cache copy cost.
func TestIndexBuildOptions(t *testing.T) {
	sc := mustLoad(t, "testdata/good.yaml",
		"schedule[0].one_at_a_time=true", "schedule[0].indexes=3",
		"hardware.storage.data.capacity=500GiB", "hardware.llc=55MiB",
		"hardware.costs.page_cache_copy=500ns", "mysql.innodb_disable_sort_file_cache=on")
	e, hw := sc.Schedule[0].Params.(*ddl.CreateIndex), sc.HardwareProfile
	if !e.OneAtATime || e.Indexes != 3 || hw.Storage.Data.Capacity != 500*GiB || hw.LLC != 55*MiB ||
		hw.Costs.PageCacheCopy != 500*Nanosecond || !sc.MySQL.DisableSortFileCache {
		t.Errorf("not decoded: %+v llc %v temp %+v costs %+v", e, hw.LLC, hw.Storage.Data, hw.Costs)
	}
	// MyRocks' defaults appear only when a MyRocks build is scheduled.
	if m := sc.MySQL; m.RocksDBMergeBufSize != 0 || m.RocksDBMergeCombineReadSize != 0 {
		t.Errorf("InnoDB-only scenario got MyRocks settings: %v %v", m.RocksDBMergeBufSize, m.RocksDBMergeCombineReadSize)
	}
	sc = mustLoad(t, "testdata/good.yaml", "schedule[0].engine=myrocks", "mysql.rocksdb_merge_combine_read_size=64MiB")
	if m := sc.MySQL; m.RocksDBMergeBufSize != 64*MiB || m.RocksDBMergeCombineReadSize != 64*MiB {
		t.Errorf("myrocks settings: %v %v, want the 64MiB default and 64MiB given", m.RocksDBMergeBufSize, m.RocksDBMergeCombineReadSize)
	}
}

func TestIndexBuildOptionsRejected(t *testing.T) {
	b, err := os.ReadFile("testdata/good.yaml")
	if err != nil {
		t.Fatal(err)
	}
	good := string(b)
	for _, c := range []struct{ set, path, has string }{
		{"schedule[0].ddl=drop_table", "schedule[0].one_at_a_time", "unknown key \"one_at_a_time\" for drop_table"},
		{"mysql.rocksdb_merge_buf_size=50", "mysql.rocksdb_merge_buf_size", "at least 100 bytes"},
		{"mysql.rocksdb_merge_combine_read_size=99", "mysql.rocksdb_merge_combine_read_size", "at least 100 bytes"},
		{"hardware.storage.data.capacity=-1GiB", "hardware.storage.data.capacity", ""},
		{"hardware.llc=-1MiB", "hardware.llc", ""},
	} {
		sets := []string{c.set}
		if strings.HasPrefix(c.set, "schedule") {
			sets = append(sets, "schedule[0].one_at_a_time=true", "schedule[0].columns=")
		}
		errs := loadErrs(t, "good.yaml", good, sets...)
		found := false
		for _, e := range errs {
			found = found || e.Path == c.path && strings.Contains(e.Error(), c.has)
		}
		if !found {
			t.Errorf("--set %s: want an error at %s (%q), got %v", c.set, c.path, c.has, errs)
		}
	}
}
