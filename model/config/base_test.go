package config

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

// scen is a small scenario around a hardware value.
func scen(hardware string) string {
	return "name: t\nhardware: " + hardware + `
mysql: {innodb_buffer_pool_size: 1GiB}
data: [{name: sbtest, tables: 1, rows: 10k}]
duration: 2s
workload: [{sysbench: {mix: oltp_point_select, threads: 2, tables: sbtest}}]
`
}

func loadText(t *testing.T, dir, text string, sets ...string) (*Scenario, error) {
	t.Helper()
	return LoadBytesWith(filepath.Join(dir, "s.yaml"), []byte(text), dir, sets, nil)
}

func mustText(t *testing.T, dir, text string, sets ...string) *Scenario {
	t.Helper()
	sc, err := loadText(t, dir, text, sets...)
	if err != nil {
		t.Fatalf("%s\n%v", text, err)
	}
	return sc
}

func shippedProfile(t *testing.T, name string) *Hardware {
	t.Helper()
	hw, err := LoadHardware(name)
	if err != nil {
		t.Fatal(err)
	}
	return hw
}

func shippedDevice(t *testing.T, name string) Device {
	t.Helper()
	d, err := LoadDevice(name)
	if err != nil {
		t.Fatal(err)
	}
	return *d
}

// A profile built on a shipped one takes every field of the base and replaces the ones it
// writes; a device preset replaces the whole device.
func TestProfileBase(t *testing.T) {
	dir := t.TempDir()
	sc := mustText(t, dir, scen("{base: 8c-64g, cores: 16, memory: 512GiB, storage: {data: nvme}}"))
	base := shippedProfile(t, "8c-64g")
	hw := sc.HardwareProfile
	if hw.Cores != 16 || hw.Memory != 512*GiB || hw.Name != "8c-64g+custom" {
		t.Errorf("overrides: %d cores, %s, name %q", hw.Cores, hw.Memory, hw.Name)
	}
	if !reflect.DeepEqual(hw.Storage.Data, shippedDevice(t, "nvme")) {
		t.Errorf("data device %+v is not the nvme preset", hw.Storage.Data)
	}
	if !reflect.DeepEqual(hw.Storage.Log, base.Storage.Log) || hw.Costs != base.Costs || hw.ClientRTT != base.ClientRTT || hw.LLC != base.LLC {
		t.Errorf("fields not overridden differ from the base")
	}

	// Written as the base itself, the profile is the base (name included).
	same := mustText(t, dir, scen("{base: 8c-64g}"))
	ref := mustText(t, dir, scen(ProfilePath("8c-64g")))
	byName := mustText(t, dir, scen("8c-64g"))
	if Hash(same) != Hash(ref) || Hash(byName) != Hash(ref) || same.HardwareProfile.Name != "8c-64g" {
		t.Errorf("base alone, the shipped path and the name hash differently: %s %s %s", Hash(same), Hash(ref), Hash(byName))
	}

	// A device mapping merges field by field; a distribution in it is replaced whole.
	sc = mustText(t, dir, scen("{base: 8c-64g, storage: {data: {bandwidth: 1GB, read: {dist: constant, value: 1ms}}}}"))
	d := sc.HardwareProfile.Storage.Data
	if d.Bandwidth != 1_000_000_000 || d.Channels != base.Storage.Data.Channels || !reflect.DeepEqual(d.Write, base.Storage.Data.Write) {
		t.Errorf("device merge: %+v", d)
	}
	if !reflect.DeepEqual(d.Read, Distribution{Dist: "constant", Value: Millisecond}) {
		t.Errorf("distribution kept fields of the base's: %+v", d.Read)
	}
	// A device built on a preset.
	sc = mustText(t, dir, scen("{base: 8c-64g, storage: {log: {base: hdd, channels: 2}}}"))
	hdd := shippedDevice(t, "hdd")
	hdd.Channels = 2
	if !reflect.DeepEqual(sc.HardwareProfile.Storage.Log, hdd) {
		t.Errorf("log device %+v, want hdd with 2 channels", sc.HardwareProfile.Storage.Log)
	}

	// Overrides reach presets and bases too.
	sc = mustText(t, dir, scen("8c-64g"), "hardware.storage.data=sata-ssd", "hardware.cores=2")
	if !reflect.DeepEqual(sc.HardwareProfile.Storage.Data, shippedDevice(t, "sata-ssd")) || sc.HardwareProfile.Cores != 2 {
		t.Errorf("--set of a preset: %+v", sc.HardwareProfile.Storage.Data)
	}
	sc = mustText(t, dir, scen("8c-64g"), "hardware={base: 80c-256g, memory: 512GB, cores: 64}")
	if b := shippedProfile(t, "80c-256g"); sc.HardwareProfile.Costs != b.Costs || sc.HardwareProfile.Cores != 64 || sc.HardwareProfile.Memory != 512_000_000_000 {
		t.Errorf("--set hardware={base: ...}: %+v", sc.HardwareProfile)
	}
}

// A profile file may build on another, by name or by a path relative to itself; a cycle is
// an error, not a hang.
func TestProfileFileBase(t *testing.T) {
	dir := t.TempDir()
	os.MkdirAll(filepath.Join(dir, "p"), 0o755)
	os.WriteFile(filepath.Join(dir, "p", "mine.yaml"), []byte("name: mine\nbase: 16c-128g-nvme\ncores: 12\n"), 0o644)
	os.WriteFile(filepath.Join(dir, "p", "mine2.yaml"), []byte("base: mine.yaml\nmemory: 96GiB\n"), 0o644)
	sc := mustText(t, dir, scen("p/mine2.yaml"))
	hw := sc.HardwareProfile
	nvme := shippedProfile(t, "16c-128g-nvme")
	if hw.Name != "mine+custom" || hw.Cores != 12 || hw.Memory != 96*GiB || hw.Costs != nvme.Costs || !reflect.DeepEqual(hw.Storage, nvme.Storage) {
		t.Errorf("chain: %+v", hw)
	}
	os.WriteFile(filepath.Join(dir, "p", "a.yaml"), []byte("base: b.yaml\n"), 0o644)
	os.WriteFile(filepath.Join(dir, "p", "b.yaml"), []byte("base: a.yaml\n"), 0o644)
	_, err := loadText(t, dir, scen("p/a.yaml"))
	if err == nil || !strings.Contains(err.Error(), "cycle") {
		t.Errorf("cycle: %v", err)
	}
	// A mistake in the base is reported in the base file, one in the overlay in the scenario.
	os.WriteFile(filepath.Join(dir, "p", "bad.yaml"), []byte("base: 8c-64g\nquantum: 4 parsecs\n"), 0o644)
	_, err = loadText(t, dir, scen("{base: p/bad.yaml, coers: 3}"))
	var errs Errors
	if !errors.As(err, &errs) || len(errs) != 2 {
		t.Fatalf("want two errors, got %v", err)
	}
	for _, e := range errs {
		switch e.Path {
		case "hardware.quantum":
			if e.File != filepath.Join(dir, "p", "bad.yaml") || e.Line != 2 {
				t.Errorf("base error at %s:%d", e.File, e.Line)
			}
		case "hardware.coers":
			if e.File != filepath.Join(dir, "s.yaml") || e.Line != 2 || !strings.Contains(e.Msg, "did you mean cores") {
				t.Errorf("overlay error: %v", e)
			}
		default:
			t.Errorf("unexpected %v", e)
		}
	}
	// Unknown names are suggested.
	_, err = loadText(t, dir, scen("{base: 8c-46g, storage: {data: nvm}}"))
	if err == nil || !strings.Contains(err.Error(), "did you mean 8c-64g?") || !strings.Contains(err.Error(), "did you mean nvme?") ||
		strings.Contains(err.Error(), "hardware.cores") {
		t.Errorf("unknown names: %v", err)
	}
}

// A cost the model charges, left out of a profile, is an error; written as 0 it is a choice.
func TestUnwrittenCosts(t *testing.T) {
	dir := t.TempDir()
	inline := "{cores: 4, memory: 8GiB, client_rtt: 100us, storage: {data: nvme}, costs: {%s}}"
	_, err := loadText(t, dir, scen(strings.ReplaceAll(inline, "%s", "page_hit: 1us")))
	var errs Errors
	if !errors.As(err, &errs) || len(errs) != 1 || errs[0].Path != "hardware.costs" || !strings.Contains(errs[0].Msg, "page_miss, list_node") ||
		strings.Contains(errs[0].Msg, "page_hit") || strings.Contains(errs[0].Msg, "sort_row_miss") || !strings.Contains(errs[0].Msg, "page_read_cpu") {
		t.Fatalf("missing costs: %v", err)
	}
	var all []string
	v := reflect.ValueOf(Costs{})
	for i := 0; i < v.NumField(); i++ {
		name, _, _ := strings.Cut(v.Type().Field(i).Tag.Get("yaml"), ",")
		if v.Type().Field(i).Tag.Get("zero") != "default" {
			all = append(all, name+": 0")
		}
	}
	sc := mustText(t, dir, scen(strings.ReplaceAll(inline, "%s", strings.Join(all, ", "))))
	if sc.HardwareProfile.Costs != (Costs{}) {
		t.Errorf("explicit zeros: %+v", sc.HardwareProfile.Costs)
	}
	// Emptying a cost with --set leaves it unwritten.
	_, err = loadText(t, dir, scen("8c-64g"), "hardware.costs.row=")
	if err == nil || !strings.Contains(err.Error(), "cost row is not written") {
		t.Errorf("--set costs.row=: %v", err)
	}
	// Every shipped profile writes every cost.
	for _, name := range ShippedProfiles() {
		if _, err := loadText(t, dir, scen(name)); err != nil {
			t.Errorf("%s: %v", name, err)
		}
	}
}

// Every YAML file under scenarios/ is shipped (the embed patterns reach every directory
// depth in use), and a shipped scenario loads by name from a directory without it, to the
// same configuration as the file in the checkout.
func TestShippedFiles(t *testing.T) {
	root := "../../scenarios"
	shipped := map[string]bool{}
	for _, p := range ShippedFiles() {
		shipped[strings.TrimPrefix(p, ShippedPrefix)] = true
	}
	filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err == nil && !d.IsDir() && strings.HasSuffix(p, ".yaml") {
			rel, _ := filepath.Rel(root, p)
			if !shipped[filepath.ToSlash(rel)] {
				t.Errorf("%s is not embedded: extend the //go:embed patterns in scenarios/embed.go", rel)
			}
		}
		return nil
	})
	if len(DevicePresets()) < 4 || len(ShippedProfiles()) < 4 {
		t.Errorf("presets %v, profiles %v", DevicePresets(), ShippedProfiles())
	}
	for _, name := range []string{"quickstart", "scenarios/quickstart.yaml", "faster-ddl/create-index", "shipped:faster-ddl/create-index.yaml"} {
		sc, err := Load(name)
		if err != nil {
			t.Errorf("%s: %v", name, err)
			continue
		}
		rel := strings.TrimSuffix(strings.TrimPrefix(strings.TrimPrefix(name, ShippedPrefix), "scenarios/"), ".yaml") + ".yaml"
		disk, err := Load(filepath.Join(root, rel))
		if err != nil {
			t.Fatal(err)
		}
		if Hash(sc) != Hash(disk) {
			t.Errorf("%s: shipped and checkout hash differently", name)
		}
	}
	if _, err := Load("no-such-scenario"); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("unknown name: %v", err)
	}
}

// "path=" resets a field to its default, even one the file wrote (docs/scenarios.md).
func TestSetEmptyResets(t *testing.T) {
	sc := mustText(t, t.TempDir(), scen("8c-64g"), "mysql.innodb_buffer_pool_size=")
	if sc.MySQL.BufferPoolSize != 128*MiB || sc.MySQL.BufferPoolInstances != 1 {
		t.Errorf("reset pool: %s x %d", sc.MySQL.BufferPoolSize, sc.MySQL.BufferPoolInstances)
	}
}
