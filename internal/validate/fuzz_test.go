package validate

import (
	"errors"
	"os"
	"path/filepath"
	"regexp"
	"runtime/metrics"
	"strings"
	"testing"

	"github.com/ddlsim/ddlsim/model/config"
	"github.com/ddlsim/ddlsim/model/runner"
)

var allocSample = []metrics.Sample{{Name: "/gc/heap/allocs:bytes"}}

func allocated() uint64 {
	metrics.Read(allocSample)
	return allocSample[0].Value.Uint64()
}

// FuzzValidationFile feeds whole validation files to Load, the check validate --run makes
// before it simulates anything. Their scenario is the CLI tests' small one (and whatever
// path the input names). No input may panic or allocate more than a few hundred MB; every
// refusal is config.Errors — each problem with a file, and a line where the file has one —
// never a bare error; and a file that is accepted names only statistics its points'
// scenarios report (runner.StatNames).
func FuzzValidationFile(f *testing.F) {
	files, _ := filepath.Glob(filepath.Join(root, "docs", "validation", "*.yaml"))
	for _, file := range files {
		b, err := os.ReadFile(file)
		if err != nil {
			continue
		}
		// Their scenarios are the long reproduction ones: point them at the small one, whose
		// DDL is a create_index too.
		lines := strings.SplitN(string(b), "\n", 2)
		for i, l := range lines {
			if strings.HasPrefix(l, "scenario:") {
				lines[i] = "scenario: small.yaml"
			}
		}
		f.Add([]byte(strings.Join(lines, "\n")))
	}
	f.Add([]byte("scenario: small.yaml\nvalidation:\n  table: t\n  points:\n    - {label: a, role: check, set: [duration=3s], compare: [{stat: tps_mean, measured: 1, source: x}, {stat: ddl0_create_index_scan_s, measured: 1, source: y}]}\n"))
	f.Add([]byte("scenario: /dev/zero\nvalidation: {table: t, points: [{label: a, role: check, compare: [{stat: tps_men, measured: 1, source: x}]}]}\n"))
	small, err := os.ReadFile(filepath.Join(root, "cmd", "ddlsim", "testdata", "small.yaml"))
	if err != nil {
		f.Fatal(err)
	}
	profile, _ := filepath.Abs(filepath.Join(root, "scenarios", "profiles", "8c-64g.yaml"))
	small = regexp.MustCompile(`(?m)^hardware: .*$`).ReplaceAll(small, []byte("hardware: "+profile))
	f.Fuzz(func(t *testing.T, data []byte) {
		dir := t.TempDir()
		if err := os.WriteFile(filepath.Join(dir, "small.yaml"), small, 0o644); err != nil {
			t.Fatal(err)
		}
		v := filepath.Join(dir, "v.yaml")
		os.WriteFile(v, data, 0o644)
		before := allocated()
		sfs, err := Load([]string{v})
		if a := allocated() - before; a > 256<<20 {
			t.Fatalf("checking a %d-byte validation file allocated %d MiB", len(data), a>>20)
		}
		if err != nil {
			var ce config.Errors
			if !errors.As(err, &ce) || len(ce) == 0 {
				t.Fatalf("a refusal that is not config.Errors (%T): %v", err, err)
			}
			for _, fe := range ce {
				if fe.File == "" {
					t.Fatalf("a problem without its file: %v", fe)
				}
			}
			return
		}
		for _, sf := range sfs {
			for _, pt := range sf.v.Points {
				sc, err := config.LoadBytesWith(sf.path, sf.data, filepath.Dir(sf.path), pointSets(pt), nil)
				if err != nil {
					t.Fatalf("an accepted point %q does not load: %v", pt.Label, err)
				}
				names := runner.StatNames(sc)
				for _, c := range pt.Compare {
					if !runner.MatchStat(names, c.Stat) {
						t.Fatalf("accepted a statistic %q the point does not report", c.Stat)
					}
				}
			}
		}
	})
}
