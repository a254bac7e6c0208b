package config_test

import (
	"os"
	"path/filepath"
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
