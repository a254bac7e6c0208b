package runner_test

import (
	"fmt"
	"math"
	"testing"

	"github.com/ddlsim/ddlsim/model/config"
	"github.com/ddlsim/ddlsim/model/metrics"
	"github.com/ddlsim/ddlsim/model/runner"
)

// fileworkYAML: three idle tables of 16 MiB, 256 MiB and 1 GiB on the lab's profile (its
// hardware.fs measured by lab/probe/fscost), none of their pages in the pool, dropped (or
// truncated) one after another with nothing else running.
const fileworkYAML = `
name: filework
seed: 3
hardware: profiles/lab-2c.yaml
mysql:
  version: "%s"
  innodb_buffer_pool_size: 256MiB
data:
  - {name: small, tables: 1, size: 16MiB}
  - {name: mid, tables: 1, size: 256MiB}
  - {name: big, tables: 1, size: 1GiB}
warm: {fill: 0}
warmup: 0s
duration: 10s
schedule:
  - {at: 1s, ddl: %[2]s, table: small}
  - {at: 3s, ddl: %[2]s, table: mid}
  - {at: 6.2s, ddl: %[2]s, table: big}
`

// fsOracle is the test's own reading of a profile table: linear between points.
func fsOracle(pts []config.FSPoint, bytes float64) float64 {
	for i := 1; i < len(pts); i++ {
		x0, x1 := float64(pts[i-1].Size), float64(pts[i].Size)
		if bytes <= x1 || i == len(pts)-1 {
			y0, y1 := pts[i-1].Wall.Seconds(), pts[i].Wall.Seconds()
			return y0 + (y1-y0)*(bytes-x0)/(x1-x0)
		}
	}
	return 0
}

// TestDropCostGrowsWithFile: a DROP's (and a TRUNCATE's) duration grows with the file by the
// measured cost of freeing it — MariaDB's close of the unlinked written file, MySQL 8.0's
// unlink of the closed one — and by nothing else: the rest of the statement is the same at
// every size. The release is a wait, not CPU: the idle server's CPU stays near zero while a
// 1 GiB file (~0.4 s) is freed.
func TestDropCostGrowsWithFile(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		version, ddl string
		mysql80      bool
	}{
		{"mariadb-10.11.19", "drop_table", false},
		{"mariadb-10.11.19", "truncate_table", false},
		{"8.0.30", "drop_table", true},
	} {
		t.Run(c.version+"/"+c.ddl, func(t *testing.T) {
			t.Parallel()
			sc := load(t, fmt.Sprintf(fileworkYAML, c.version, c.ddl))
			tab := sc.HardwareProfile.FS.FreeWritten
			if c.mysql80 {
				tab = sc.HardwareProfile.FS.UnlinkWritten
			}
			r := run(t, fmt.Sprintf(fileworkYAML, c.version, c.ddl))
			if len(r.DDL) != 3 {
				t.Fatalf("%d DDL results, want 3", len(r.DDL))
			}
			sizes := []float64{16 << 20, 256 << 20, 1 << 30}
			var fixed []float64
			for i, d := range r.DDL {
				if d.Failed || d.Unfinished {
					t.Fatalf("%s %s: failed %v (%s)", d.Op, d.Table, d.Failed, d.Reason)
				}
				rel := phase(d, "release_file")
				// The file is the table's pages (within a few percent of the nominal size)
				// rounded up to its extension step (1 MiB below 32 MiB, 4 MiB above); 8.0
				// counts the whole file as written (it extends by writing zeros).
				step := float64(4 << 20)
				if sizes[i] < 32<<20 {
					step = 1 << 20
				}
				lo, hi := 0.96*fsOracle(tab, sizes[i]), 1.04*fsOracle(tab, sizes[i]+step)
				if rel < lo || rel > hi {
					t.Errorf("%s of %s: release_file %.4f s, want the measured %.4f - %.4f s at %.0f MiB", d.Op, d.Table, rel, lo, hi, sizes[i]/(1<<20))
				}
				fixed = append(fixed, d.DurationS-rel)
			}
			for i := 1; i < 3; i++ {
				if math.Abs(fixed[i]-fixed[0]) > 0.002 {
					t.Errorf("the statement's work besides the release differs with the size: %.4f s vs %.4f s", fixed[i], fixed[0])
				}
			}
			grow := r.DDL[2].DurationS - r.DDL[0].DurationS
			wantGrow := fsOracle(tab, sizes[2]) - fsOracle(tab, sizes[0])
			if math.Abs(grow-wantGrow) > 0.04*wantGrow {
				t.Errorf("1 GiB − 16 MiB: %.4f s, want the measured difference %.4f s", grow, wantGrow)
			}
			if !hasFilePhases(r.DDL[2]) {
				t.Errorf("phases %v: want delete_file and release_file", r.DDL[2].Phases)
			}
			// The big file's release spans [6.2 s, ~6.65 s]: the series row ending at 7 s.
			cpu := r.Series.Col("cpu_util")
			for _, row := range r.Series.Rows {
				if row[0] == 7 && row[cpu] > 0.05 {
					t.Errorf("cpu_util %.3f during the 1 GiB release: the release must be a wait, not CPU", row[cpu])
				}
			}
		})
	}
}

func hasFilePhases(d metrics.DDLResult) bool {
	return hasPhase(d, "delete_file") && hasPhase(d, "release_file")
}

// TestFileWorkNeedsTheProfile: a profile that did not measure the file-system calls
// simulates none of the fixed work (the DROP stays the buffer-pool part alone).
func TestFileWorkNeedsTheProfile(t *testing.T) {
	t.Parallel()
	y := fmt.Sprintf(fileworkYAML, "mariadb-10.11.19", "drop_table")
	r := run(t, y+"\n") // lab-2c has fs
	sc := load(t, y)
	sc.HardwareProfile.FS = config.FS{}
	if hasFilePhases(ddlOf(t, r, "drop_table")) == false {
		t.Fatal("lab-2c: no file phases")
	}
	r2 := runSc(t, sc)
	d := ddlOf(t, r2, "drop_table")
	if hasPhase(d, "delete_file") || hasPhase(d, "release_file") || hasPhase(d, "ddl_log") || d.DurationS > 0.001 {
		t.Errorf("without hardware.fs: phases %v, %.4f s; want the lazy drop alone", d.Phases, d.DurationS)
	}
}

func runSc(t testing.TB, sc *config.Scenario) *runner.Result {
	t.Helper()
	r, err := runner.Run(sc, runner.Options{})
	if err != nil {
		t.Fatal(err)
	}
	return r
}
