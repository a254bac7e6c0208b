package config_test

import (
	"os"
	"path/filepath"
	"regexp"
	"runtime/metrics"
	"strings"
	"testing"

	"github.com/ddlsim/ddlsim/model/config"
	"github.com/ddlsim/ddlsim/model/runner" // installs the assembly's schema (every DDL operation, workload and policy)
)

// fuzzBase is where a fuzzed scenario's hardware path resolves from: the shipped scenarios,
// so `hardware: profiles/8c-64g.yaml` is found.
const fuzzBase = "../../scenarios"

// fuzzAllocLimit is what one load may allocate: saying yes or no to a file within the input
// limits must cost a few hundred MB at most, however large the numbers in it (a group of 10^9
// tables once made a table-name check allocate 12 GB).
const fuzzAllocLimit = 256 << 20

var allocSample = []metrics.Sample{{Name: "/gc/heap/allocs:bytes"}}

// allocated is the bytes allocated by the process so far.
func allocated() uint64 {
	metrics.Read(allocSample)
	return allocSample[0].Value.Uint64()
}

var hardwareLine = regexp.MustCompile(`(?m)^hardware: .*profiles/`)

// FuzzLoad feeds whole scenario files plus one --set override to the loader. No input may
// panic; every error line quotes foreign text as an excerpt; and a scenario that is accepted
// marshals to canonical YAML that loads back to the same configuration hash (and marshals to
// the same bytes again), and can be estimated.
func FuzzLoad(f *testing.F) {
	files, _ := filepath.Glob(filepath.Join(fuzzBase, "*.yaml"))
	more, _ := filepath.Glob(filepath.Join(fuzzBase, "*", "*.yaml"))
	files = append(append(files, more...), "testdata/good.yaml", "testdata/three-mistakes.yaml")
	sets := []string{"", "mysql.innodb_buffer_pool_size=24GiB", "policy={name: indexed, batch: 256}", "data[0].tables=1000000000",
		"workload[0].sysbench.threads=64", "hardware.cores=16", "schedule[0].every=1s", "data[0].rows=2M",
		"hardware=profiles/80c-256g.yaml", "report.interval=100ms", "mysql.version=5.7.30"}
	for i, file := range files {
		b, err := os.ReadFile(file)
		if err != nil || strings.Contains(file, "profiles") {
			continue
		}
		b = hardwareLine.ReplaceAll(b, []byte("hardware: profiles/"))
		f.Add(b, sets[i%len(sets)])
	}
	f.Fuzz(func(t *testing.T, data []byte, set string) {
		var overrides []string
		if set != "" {
			overrides = []string{set}
		}
		before := allocated()
		sc, err := config.LoadBytesWith("fuzz.yaml", data, fuzzBase, overrides, nil)
		if a := allocated() - before; a > fuzzAllocLimit {
			t.Fatalf("loading %d bytes and a %d-byte --set allocated %d MiB (a value that sizes a loop or a list?)", len(data), len(set), a>>20)
		}
		if err != nil {
			for _, line := range strings.Split(err.Error(), "\n") {
				if len(line) > 4096 {
					t.Fatalf("an error line of %d bytes: %.300s…", len(line), line)
				}
			}
			return
		}
		canon, err := config.Marshal(sc)
		if err != nil {
			t.Fatalf("accepted scenario does not marshal: %v", err)
		}
		back, err := config.LoadBytes("canonical.yaml", canon, fuzzBase)
		if err != nil {
			t.Fatalf("canonical YAML of an accepted scenario does not load:\n%v\n--- canonical:\n%s", err, canon)
		}
		if h1, h2 := config.Hash(sc), config.Hash(back); h1 != h2 {
			again, _ := config.Marshal(back)
			t.Fatalf("hash %s, after a round trip %s\n--- canonical:\n%s\n--- again:\n%s", h1, h2, canon, again)
		}
		runner.EstimateRun(sc)
	})
}
