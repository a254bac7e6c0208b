package config_test

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/ddlsim/ddlsim/model/config"
)

// Every scenario and hardware profile shipped under scenarios/ loads and validates: a field
// renamed in the code (ahi_drop → ahi_fold, ahi_node, block_scan) must be renamed in every
// file a user may run. Sweep specs are checked by internal/sweep's TestShippedSpecs.
func TestShippedFilesLoad(t *testing.T) {
	root := "../../scenarios"
	n := 0
	err := filepath.WalkDir(root, func(path string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(path, ".yaml") {
			return err
		}
		rel, _ := filepath.Rel(root, path)
		switch {
		case strings.HasPrefix(rel, "sweeps"+string(filepath.Separator)), strings.HasSuffix(rel, ".sweep.yaml"):
			return nil
		case strings.HasPrefix(rel, filepath.Join("profiles", "devices")+string(filepath.Separator)):
			if _, err := config.LoadDevice(path); err != nil {
				t.Errorf("%s: %v", rel, err)
			}
		case strings.HasPrefix(rel, "profiles"+string(filepath.Separator)):
			if _, err := config.LoadHardware(path); err != nil {
				t.Errorf("%s: %v", rel, err)
			}
		default:
			sc, err := config.Load(path)
			if err == nil {
				err = config.Validate(sc)
			}
			if err != nil {
				t.Errorf("%s: %v", rel, err)
			}
		}
		n++
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if n < 10 {
		t.Fatalf("only %d files checked under %s", n, root)
	}
}

// Every per-record cost in a shipped profile cites the benchmark that measured it (issue 13):
// the line's comment or the comment block right above it names a model/calib benchmark, or,
// for the one cost that stays fitted (rebuild_row), says it is a fit and on what.
func TestProfileCostsCiteTheirSource(t *testing.T) {
	measured := []string{"filesort_row", "build_row", "sort_row", "sort_row_miss", "merge_row", "load_row", "ahi_fold", "ahi_node", "block_scan"}
	paths, _ := filepath.Glob("../../scenarios/profiles/*.yaml")
	if len(paths) < 3 {
		t.Fatalf("profiles: %v", paths)
	}
	for _, p := range paths {
		data, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		lines := strings.Split(string(data), "\n")
		// cites: the line's own comment, or the comment block above it, walking up over the
		// other measured-cost lines of its group.
		cites := func(i int, words ...string) bool {
			block := lines[i]
			for j := i - 1; j >= 0; j-- {
				tl := strings.TrimSpace(lines[j])
				key, _, _ := strings.Cut(tl, ":")
				if strings.HasPrefix(tl, "#") {
					block += "\n" + tl
					continue
				}
				if !slices.Contains(measured, key) {
					break
				}
			}
			for _, w := range words {
				if strings.Contains(block, w) {
					return true
				}
			}
			return false
		}
		for i, l := range lines {
			key, _, ok := strings.Cut(strings.TrimSpace(l), ":")
			if !ok || strings.HasPrefix(key, "#") {
				continue
			}
			switch {
			case slices.Contains(measured, key):
				if !cites(i, "Benchmark", "model/calib") {
					t.Errorf("%s:%d: %s does not cite the model/calib benchmark that measured it", filepath.Base(p), i+1, key)
				}
			case key == "rebuild_row":
				if !cites(i, "fit") {
					t.Errorf("%s:%d: rebuild_row does not say it is a baseline fit", filepath.Base(p), i+1)
				}
			}
		}
	}
}
