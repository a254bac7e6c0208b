package config_test

import (
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"gopkg.in/yaml.v3"

	. "github.com/ddlsim/ddlsim/model/config"
	"github.com/ddlsim/ddlsim/model/ddl"
	_ "github.com/ddlsim/ddlsim/model/runner" // links the DDL, workload and policy kinds
	"github.com/ddlsim/ddlsim/model/workload"
	"github.com/ddlsim/ddlsim/policies"
)

func mustLoad(t *testing.T, path string, sets ...string) *Scenario {
	t.Helper()
	sc, err := LoadWith(path, sets, nil)
	if err != nil {
		t.Fatalf("load %s: %v", path, err)
	}
	return sc
}

// loadErrs loads a scenario that must fail and returns its errors.
func loadErrs(t *testing.T, name, text string, sets ...string) Errors {
	t.Helper()
	_, err := LoadBytesWith(name, []byte(text), "testdata", sets, nil)
	var errs Errors
	if !errors.As(err, &errs) {
		t.Fatalf("%s: got %v, want config.Errors", name, err)
	}
	return errs
}

func TestThreeMistakes(t *testing.T) {
	_, err := Load("testdata/three-mistakes.yaml")
	var errs Errors
	if !errors.As(err, &errs) {
		t.Fatalf("got %v, want Errors", err)
	}
	want := []struct {
		line, col int
		path, has string
	}{
		{6, 28, "mysql.innodb_buffer_pool_size", `bad value "-4GiB"`},
		{7, 3, "mysql.innodb_bufer_pool_instances", "did you mean innodb_buffer_pool_instances"},
		{13, 11, "duration", `unknown duration unit "parsecs"`},
	}
	if len(errs) != len(want) {
		t.Fatalf("got %d errors, want %d:\n%v", len(errs), len(want), err)
	}
	for i, w := range want {
		e := errs[i]
		if e.File != "testdata/three-mistakes.yaml" || e.Line != w.line || e.Col != w.col || e.Path != w.path || !strings.Contains(e.Error(), w.has) {
			t.Errorf("error %d = %q, want testdata/three-mistakes.yaml:%d:%d: %s ... %s", i, e, w.line, w.col, w.path, w.has)
		}
	}
}

func TestGoodScenarioDefaults(t *testing.T) {
	sc := mustLoad(t, "testdata/good.yaml")
	m := sc.MySQL
	if m.BufferPoolInstances != 8 || m.PageSize != 16*KiB || m.OldBlocksPct != 37 || m.OldBlocksTime != Second ||
		m.PageCleaners != 4 || m.IOCapacity != 200 || m.IOCapacityMax != 2000 || m.LRUScanDepth != 1024 ||
		!*m.AdaptiveHashIndex || !*m.Doublewrite || m.LogFileSize != 48*MiB || m.LogFilesInGroup != 2 ||
		m.MaxDirtyPagesPct != 90 || m.MaxDirtyPagesPctLWM != 10 || m.FlushLogAtTrxCommit != 1 ||
		m.DDLThreads != 4 || m.DDLBufferSize != MiB || m.ParallelReadThreads != 4 || !*m.AlterTableProgress {
		t.Errorf("mysql defaults: %+v", m)
	}
	if sc.Report.Interval != Second || sc.Warm.Fill != 0.95 || sc.Policy.Name != "fullscan" {
		t.Errorf("scenario defaults: report %v warm %v policy %v", sc.Report, sc.Warm, sc.Policy)
	}
	if sc.Data[0].Kind != "sysbench" || *sc.Data[0].SecondaryIndexes != 1 || sc.Schedule[0].Params.(*ddl.CreateIndex).Indexes != 1 || sc.Schedule[0].Params.(*ddl.CreateIndex).Engine != "innodb" {
		t.Errorf("data/schedule defaults: %+v %+v", sc.Data[0], sc.Schedule[0])
	}
	if sc.HardwareProfile.Cores != 8 || sc.HardwareProfile.Memory != 64*GiB || sc.Hardware.Path != "profiles/test-8c.yaml" || sc.Hardware.Inline != nil {
		t.Errorf("hardware: %+v %+v", sc.Hardware, sc.HardwareProfile)
	}
}

func TestDefaultsDependOnOtherFields(t *testing.T) {
	sc := mustLoad(t, "testdata/good.yaml",
		"mysql.innodb_buffer_pool_size=512MiB", "mysql.innodb_io_capacity=5000")
	if sc.MySQL.BufferPoolInstances != 1 {
		t.Errorf("512MiB pool: %d instances, want 1", sc.MySQL.BufferPoolInstances)
	}
	if sc.MySQL.PageCleaners != 1 {
		t.Errorf("page cleaners %d, want capped at 1 instance", sc.MySQL.PageCleaners)
	}
	if sc.MySQL.IOCapacityMax != 10000 {
		t.Errorf("io_capacity_max %d, want 2x io_capacity", sc.MySQL.IOCapacityMax)
	}
	sc = mustLoad(t, "testdata/good.yaml", "mysql.version=5.7.30")
	if sc.MySQL.MaxDirtyPagesPct != 75 || sc.MySQL.MaxDirtyPagesPctLWM != 0 {
		t.Errorf("5.7 dirty-page defaults: %v %v", sc.MySQL.MaxDirtyPagesPct, sc.MySQL.MaxDirtyPagesPctLWM)
	}
	// A written zero is not "absent": it stays and validation judges it.
	errs := loadErrs(t, "zero.yaml", readGood(t)+"\nwarm: {fill: 0}\n", "mysql.innodb_buffer_pool_instances=0")
	if len(errs) != 1 || errs[0].Path != "mysql.innodb_buffer_pool_instances" || errs[0].File != "--set" {
		t.Errorf("explicit zero: %v", errs)
	}
}

func readGood(t *testing.T) string {
	b, err := os.ReadFile("testdata/good.yaml")
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

func TestHardwareProfileErrorsNameTheProfile(t *testing.T) {
	dir := t.TempDir()
	os.MkdirAll(filepath.Join(dir, "profiles"), 0o755)
	os.WriteFile(filepath.Join(dir, "profiles", "bad.yaml"), []byte("name: bad\ncores: 0\nmemory: 64 gigs\nstorage:\n  data: {channels: 4, read: {dist: constant, value: 1ms}, write: {dist: normal}}\n"), 0o644)
	scen := filepath.Join(dir, "s.yaml")
	os.WriteFile(scen, []byte(strings.Replace(readGood(t), "profiles/test-8c.yaml", "profiles/bad.yaml", 1)), 0o644)
	_, err := Load(scen)
	var errs Errors
	if !errors.As(err, &errs) {
		t.Fatalf("got %v", err)
	}
	profile := filepath.Join(dir, "profiles", "bad.yaml")
	// The costs it leaves out are reported at the profile's start (no costs: key to point at).
	want := map[string]int{"hardware.memory": 3, "hardware.cores": 2, "hardware.storage.data.write.dist": 5, "hardware.costs": 1}
	for _, e := range errs {
		line, ok := want[e.Path]
		if !ok {
			t.Errorf("unexpected error %v", e)
			continue
		}
		if e.File != profile || e.Line != line {
			t.Errorf("%v: want %s:%d", e, profile, line)
		}
		delete(want, e.Path)
	}
	if len(want) > 0 {
		t.Errorf("missing errors for %v in:\n%v", want, err)
	}

	// A missing profile is one error at the scenario's hardware line.
	errs = loadErrs(t, "s.yaml", strings.Replace(readGood(t), "profiles/test-8c.yaml", "profiles/nope.yaml", 1))
	if len(errs) != 1 || errs[0].Path != "hardware" || errs[0].Line != 3 || !strings.Contains(errs[0].Msg, "no such file") {
		t.Errorf("missing profile: %v", errs)
	}
}

func TestInlineHardware(t *testing.T) {
	prof, err := os.ReadFile("testdata/profiles/test-8c.yaml")
	if err != nil {
		t.Fatal(err)
	}
	inline := "hardware:\n  " + strings.ReplaceAll(strings.TrimSpace(string(prof)), "\n", "\n  ") + "\n"
	text := strings.Replace(readGood(t), "hardware: profiles/test-8c.yaml\n", inline, 1)
	a, err := LoadBytes("inline.yaml", []byte(text), t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	b := mustLoad(t, "testdata/good.yaml")
	if Hash(a) != Hash(b) {
		t.Errorf("inline and referenced profile hash differently: %s vs %s", Hash(a), Hash(b))
	}
}

func TestHashAndMarshalRoundTrip(t *testing.T) {
	a, b := mustLoad(t, "testdata/good.yaml"), mustLoad(t, "testdata/good.yaml")
	if Hash(a) != Hash(b) || len(Hash(a)) != 16 {
		t.Fatalf("hash not stable: %s %s", Hash(a), Hash(b))
	}
	text, err := Marshal(a)
	if err != nil {
		t.Fatal(err)
	}
	c, err := LoadBytes("canonical.yaml", text, t.TempDir())
	if err != nil {
		t.Fatalf("canonical YAML does not load: %v\n%s", err, text)
	}
	if Hash(c) != Hash(a) {
		t.Errorf("hash changed through Marshal/Load")
	}
	c.Hardware.Path = a.Hardware.Path // the only thing canonical YAML drops on purpose
	c.Origins = a.Origins             // where each value was written: not configuration
	if !reflect.DeepEqual(a, c) {
		t.Errorf("round trip differs:\n%+v\n%+v", a, c)
	}
}

// descriptive are the fields that say what the real server is or did and change no simulated
// value: the hash leaves them out on purpose (Hash).
var descriptive = map[string]bool{".Warm.WholeWorkingSet": true, ".Observed.StatementsPerS": true, ".Observed.Source": true}

// TestHashCoversEveryField changes each leaf of a loaded scenario in turn; every change must
// change the hash, or two different runs could claim to be the same configuration.
func TestHashCoversEveryField(t *testing.T) {
	sc := mustLoad(t, "testdata/good.yaml", "policy={name: indexed, batch: 256}")
	base := Hash(sc)
	n := 0
	var walk func(v reflect.Value, path string)
	walk = func(v reflect.Value, path string) {
		switch v.Type() {
		case reflect.TypeFor[HardwareRef]():
			return // replaced by the resolved profile
		}
		switch v.Kind() {
		case reflect.Pointer, reflect.Interface:
			if !v.IsNil() {
				walk(v.Elem(), path)
			}
		case reflect.Struct:
			for i := 0; i < v.NumField(); i++ {
				if v.Type().Field(i).IsExported() && v.Type().Field(i).Tag.Get("yaml") != "-" || v.Type().Field(i).Name == "HardwareProfile" {
					walk(v.Field(i), path+"."+v.Type().Field(i).Name)
				}
			}
		case reflect.Slice:
			for i := 0; i < v.Len(); i++ {
				walk(v.Index(i), path)
			}
		default:
			old := reflect.ValueOf(v.Interface())
			switch v.Kind() {
			case reflect.String:
				v.SetString(v.String() + "x")
			case reflect.Bool:
				v.SetBool(!v.Bool())
			case reflect.Float64:
				v.SetFloat(v.Float() + 0.25)
			case reflect.Int, reflect.Int64:
				v.SetInt(v.Int() + 1)
			case reflect.Uint64:
				v.SetUint(v.Uint() + 1)
			default:
				t.Fatalf("%s: unhandled kind %s", path, v.Kind())
			}
			switch changed := Hash(sc) != base; {
			case descriptive[path] && changed:
				t.Errorf("changing %s, which says what the real server is or did and is not simulated, changed the hash", path)
			case !descriptive[path] && !changed:
				t.Errorf("changing %s did not change the hash", path)
			}
			v.Set(old)
			n++
		}
	}
	walk(reflect.ValueOf(sc).Elem(), "")
	if Hash(sc) != base {
		t.Fatal("walk did not restore the scenario")
	}
	if n < 80 {
		t.Errorf("only %d fields exercised", n)
	}
}

func TestSet(t *testing.T) {
	sc := mustLoad(t, "testdata/good.yaml")
	for _, s := range [][2]string{
		{"mysql.innodb_buffer_pool_size", "24GiB"},
		{"workload[0].sysbench.threads", "64"},
		{"policy", "indexed"},
		{"policy.batch", "128"},
		{"seed", "7"},
		{"hardware.cores", "16"},
		{"hardware.storage.data.sync.table[1][1]", "2ms"},
		{"schedule[1].ddl", "drop_table"}, // index == len appends
		{"schedule[1].table", "big"},
		{"data[0]", "{name: sbtest, tables: 2, rows: 1k}"},
		{"description", "a: b"},
	} {
		if err := Set(sc, s[0], s[1]); err != nil {
			t.Errorf("Set(%s=%s): %v", s[0], s[1], err)
		}
	}
	if sc.MySQL.BufferPoolSize != 24*GiB || sc.Workload[0].Params.(*workload.Sysbench).Threads != 64 || sc.Seed != 7 ||
		sc.HardwareProfile.Cores != 16 || sc.HardwareProfile.Storage.Data.Sync.Table[1].Value != 2*Millisecond ||
		len(sc.Schedule) != 2 || sc.Schedule[1].Table != "big" || sc.Data[0].Rows != 1000 || sc.Description != "a: b" {
		t.Errorf("Set did not take: %+v", sc)
	}
	if p, ok := sc.Policy.Params.(*policies.IndexedParams); sc.Policy.Name != "indexed" || !ok || p.Batch == nil || *p.Batch != 128 {
		t.Errorf("policy = %v", sc.Policy)
	}
	ApplyDefaults(sc)
	if err := Validate(sc); err != nil {
		t.Errorf("after sets: %v", err)
	}

	for _, tc := range []struct{ path, value, want string }{
		{"mysql.innodb_bufer_pool_size", "1G", "did you mean innodb_buffer_pool_size?"},
		{"workload[5].sysbench.threads", "1", "out of range"},
		{"workload.threads", "1", "workload is a list: use workload[N].threads"},
		{"mysql.innodb_buffer_pool_size", "12 parsecs", `bad value "12 parsecs"`},
		{"duration", "300", "missing unit"},
		{"seed", "-1", "non-negative integer"},
		{"nope", "1", "valid keys: name, description, seed, hardware"},
		{"name.x", "1", "name has no fields"},
	} {
		err := Set(sc, tc.path, tc.value)
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("Set(%s=%s) = %v, want error containing %q", tc.path, tc.value, err, tc.want)
		}
	}
}

func TestLoadWithOverridesAndSeed(t *testing.T) {
	seed := uint64(99)
	sc, err := LoadWith("testdata/good.yaml", []string{"workload[0].sysbench.threads=4", "policy=lazy"}, &seed)
	if err != nil {
		t.Fatal(err)
	}
	if sc.Seed != 99 || sc.Workload[0].Params.(*workload.Sysbench).Threads != 4 || sc.Policy.Name != "lazy" {
		t.Errorf("overrides not applied: seed %d threads %d policy %v", sc.Seed, sc.Workload[0].Params.(*workload.Sysbench).Threads, sc.Policy)
	}
	// Bad overrides are reported together with file errors, validation catches bad values.
	errs := loadErrs(t, "good.yaml", readGood(t), "mysql.innodb_buffer_pool_size=128GiB", "oops", "warmup=1x")
	var got []string
	for _, e := range errs {
		got = append(got, e.Error())
	}
	want := []string{
		`--set: bad value "oops": expected path=value, e.g. mysql.innodb_buffer_pool_size=24GiB`,
		`--set: warmup: bad value "1x": unknown duration unit "x": expected a duration with a unit such as 100ns, 500us, 1.5ms, 300s, 2m, 1h`,
		`--set: mysql.innodb_buffer_pool_size: bad value "128GiB": expected at most hardware.memory (64GiB)`,
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("got\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	// The hardware reference itself can be overridden; it resolves like the file's own.
	sc = mustLoad(t, "testdata/good.yaml", "hardware=profiles/test-8c.yaml", "hardware.cores=2")
	if sc.HardwareProfile.Cores != 2 {
		t.Errorf("cores %d", sc.HardwareProfile.Cores)
	}
}

func TestValidation(t *testing.T) {
	for _, tc := range []struct {
		set   string
		path  string
		msg   string
		extra bool // other, true findings follow from the same change
	}{
		{"mysql.version=9.1.0", "mysql.version", "5.7.N", false},
		{"mysql.innodb_old_blocks_pct=99", "mysql.innodb_old_blocks_pct", "from 5 to 95", false},
		{"mysql.innodb_page_size=12KiB", "mysql.innodb_page_size", "one of 4KiB", false},
		{"mysql.innodb_buffer_pool_size=65GiB", "mysql.innodb_buffer_pool_size", "at most hardware.memory", false},
		{"mysql.innodb_io_capacity_max=150", "mysql.innodb_io_capacity_max", "at least innodb_io_capacity", false},
		{"hardware.cores=0", "hardware.cores", "at least 1 core", false},
		{"hardware.storage.data.read.p99=50us", "hardware.storage.data.read.p99", "greater than p50", false},
		{"hardware.storage.data.read.mean=5us", "hardware.storage.data.read.mean", "not a parameter of dist lognormal", false},
		{"hardware.storage.data.sync.table[2][0]=0.999", "hardware.storage.data.sync.table[2][0]", "end at quantile 1", false},
		{"hardware.storage.data.sync.table[1][0]=0.4", "hardware.storage.data.sync.table[1][0]", "ascending", false},
		{"hardware.storage.data.write.dist=normal", "hardware.storage.data.write.dist", "one of [constant", false},
		{"policy=clock", "policy.name", `bad value "clock": unknown policy; expected one of fullscan, indexed, lazy`, false},
		{"policy={name: indexed, batch: lots}", "policy.batch", `bad value "lots": expected an integer`, false},
		{"policy={name: indexed, batch: -1}", "policy.batch", `expected a value from 1`, false},
		{"policy={name: indexed, bach: 8}", "policy.bach", `did you mean batch?`, false},
		{"policy={name: fullscan, restart: sometimes}", "policy.restart", `expected on/off`, false},
		{"workload[0].sysbench.tables=nope", "workload[0].sysbench.tables", `no data group named "nope"`, false},
		{"workload[0].sysbench.mix=oltp_everything", "workload[0].sysbench.mix", "one of oltp_read_write", false},
		{"workload[0].sysbench.rand=normal", "workload[0].sysbench.rand", "one of special", false},
		{"workload[0].tpcc.threads=2", "workload[0].tpcc.threads", "is a sysbench workload", false},
		{"workload[1]={sysbench: {}, tpcc: {}}", "workload[1]", "one workload per list entry", false},
		{"schedule[0].at=361s", "schedule[0].at", "within the run", false},
		{"schedule[0].ddl=truncate", "schedule[0].ddl", "did you mean truncate_table?", false},
		{"schedule[0]={at: 1s, ddl: drop_table, table: big, indexes: 2}", "schedule[0].indexes", `unknown field; valid fields: at, every, count, ddl, table`, false},
		{"schedule[0].table=small", "schedule[0].table", `no data group or table named "small"`, false},
		{"schedule[0].table=big[2]", "schedule[0].table", `group "big" has 1 tables`, false},
		{"schedule[0].table=sbtest17", "schedule[0].table", `no data group or table named "sbtest17"`, false},
		{"schedule[0].columns=[]", "schedule[0].columns", "needs columns", false},
		{"data[1].rows=5", "data[1]", "exactly one of rows or size", false},
		{"data[2]={name: big, size: 1GB}", "data[2].name", "duplicate", false},
		{"warm.fill=1.5", "warm.fill", "from 0 to 1", false},
		{"duration=0s", "duration", "positive duration", false},
		{"report.interval=10m", "report.interval", "at most duration", false},
	} {
		errs := loadErrs(t, "good.yaml", readGood(t), tc.set)
		found := false
		for _, e := range errs {
			found = found || (e.Path == tc.path && strings.Contains(e.Error(), tc.msg))
		}
		if !found || (len(errs) != 1 && !tc.extra) {
			t.Errorf("--set %s: got\n%v\nwant exactly one error at %s containing %q", tc.set, errs, tc.path, tc.msg)
		}
	}
}

func TestDecodeErrors(t *testing.T) {
	for _, tc := range []struct {
		name, text string
		want       []string // each a substring of one error, in order
	}{
		{"syntax", "name: x\nmysql: [\n", []string{"syntax.yaml:2: YAML syntax"}},
		{"duplicate", "name: a\nname: b\n", []string{`syntax.yaml:2:1: name: duplicate key (first given on line 1)`}},
		{"shape", "name: x\nmysql: 5\ndata: {name: x}\n", []string{"2:8: mysql: bad value \"5\": found a scalar: expected a mapping", "3:7: data: found a mapping: expected a list"}},
		{"bool", "mysql: {innodb_doublewrite: maybe}\n", []string{`1:29: mysql.innodb_doublewrite: bad value "maybe": expected on/off`}},
		{"int", "seed: 1.5\nmysql: {innodb_buffer_pool_instances: lots}\n", []string{`1:7: seed: bad value "1.5"`, `2:39: mysql.innodb_buffer_pool_instances: bad value "lots": expected an integer`}},
		{"policy", "policy: {batch: 2}\n", []string{"1:9: policy.name: missing"}},
		{"empty", "", []string{"empty file"}},
	} {
		_, err := LoadBytes("syntax.yaml", []byte(tc.text), "testdata")
		if err == nil {
			t.Errorf("%s: no error", tc.name)
			continue
		}
		for _, w := range tc.want {
			if !strings.Contains(err.Error(), w) {
				t.Errorf("%s: error\n%v\nlacks %q", tc.name, err, w)
			}
		}
	}
}

func TestLoadMissingFile(t *testing.T) {
	_, err := Load("testdata/no-such.yaml")
	if !errors.Is(err, os.ErrNotExist) {
		t.Errorf("got %v, want ErrNotExist", err)
	}
}

// TestKindsYAML: the registered kinds' blocks (a policy with a parameter, a workload, a DDL
// operation with fields of its own) survive plain yaml.v3 marshalling and unmarshalling.
func TestKindsYAML(t *testing.T) {
	type doc struct {
		P PolicySpec `yaml:"p"`
		W []Workload `yaml:"w"`
		S []DDLEvent `yaml:"s"`
	}
	var in doc
	src := "p: {name: indexed, batch: 128}\nw: [{sysbench: {mix: oltp_read_only, threads: 4}}]\ns: [{at: 5s, ddl: create_index, table: t, columns: [c], indexes: 2}]\n"
	if err := yaml.Unmarshal([]byte(src), &in); err != nil {
		t.Fatal(err)
	}
	b, err := yaml.Marshal(in)
	if err != nil {
		t.Fatal(err)
	}
	var out doc
	if err := yaml.Unmarshal(b, &out); err != nil {
		t.Fatalf("%v\n%s", err, b)
	}
	if out.P.String() != "indexed batch=128" || out.W[0].Params.(*workload.Sysbench).Threads != 4 ||
		out.S[0].Params.(*ddl.CreateIndex).Indexes != 2 || out.S[0].At != 5*Second {
		t.Errorf("round trip through yaml.v3:\n%s\ngot %+v", b, out)
	}
	for _, bad := range []string{"p: {name: indexed, batch: lots}", "p: {name: indexed, bogus: 1}", "p: nosuch",
		"w: [{sysbench: {mix: x}, tpcc: {}}]", "w: [{nosuch: {}}]", "s: [{at: 1s, ddl: drop_table, columns: [c]}]", "s: [{at: 1s}]"} {
		if err := yaml.Unmarshal([]byte(bad), &out); err == nil {
			t.Errorf("%s: accepted", bad)
		}
	}
}
