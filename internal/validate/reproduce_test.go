//go:build validation

package validate

import (
	"bytes"
	"context"
	"os"
	"runtime"
	"testing"
)

// ddlsim validate --run reproduces the committed docs/validation/results.json byte for byte:
// every point of every validation file simulated again (the same seeds, deterministic), on all
// cores. Long (about 40 minutes on the 2-core VM): .ci/run runs it with its own timeout.
//
//	go test -tags validation -timeout 90m -run ValidateReproduces ./internal/validate/
func TestValidateReproduces(t *testing.T) {
	want, err := os.ReadFile(root + "/docs/validation/results.json")
	if err != nil {
		t.Fatal(err)
	}
	files, err := Find(root + "/docs/validation")
	if err != nil {
		t.Fatal(err)
	}
	res, err := Run(context.Background(), files, Options{Jobs: runtime.NumCPU(), Root: root})
	if err != nil {
		t.Fatal(err)
	}
	got, err := res.Marshal()
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(got, want) {
		old, _ := ReadResults(root + "/docs/validation/results.json")
		for i := range res.Rows {
			if old == nil || i >= len(old.Rows) {
				t.Errorf("row %d (%s [%s] %s) is new", i, res.Rows[i].Annotation, res.Rows[i].Point, res.Rows[i].Stat)
				continue
			}
			a, b := old.Rows[i], res.Rows[i]
			if a.Mean != b.Mean || len(a.Sim) != len(b.Sim) {
				t.Errorf("%s [%s] %s: committed %v, now %v", b.Annotation, b.Point, b.Stat, a.Sim, b.Sim)
			}
		}
		t.Fatal("the simulation no longer gives the committed results: rerun ddlsim validate --run and review the change")
	}
}
