package indexbuild

import (
	"testing"

	"github.com/ddlsim/ddlsim/model/config"
	"github.com/ddlsim/ddlsim/model/server"
	"github.com/ddlsim/ddlsim/sim"
)

// The CREATE INDEX option study (shared/seeds/002_d07eaafe5b0044dd.txt) on the shipped
// 80c-256g profile with the scenarios' settings (scenarios/create-index-options/: 180 GiB
// buffer pool, 4 parallel read threads), in aggregate mode (the table is read from the data
// device; docs/indexbuild.md). TestStudyTable prints the docs/validation.md table:
//
//	go test ./model/indexbuild -run StudyTable -v
const (
	studyProfile = "../../scenarios/profiles/80c-256g.yaml"
	studyPool    = 180 * gib
)

// profiles caches the loaded hardware profiles (tests run sequentially).
var profiles = map[string]*config.Hardware{}

// profileEnv is a fresh machine built from a hardware profile file, with the page cache a
// server with a pool of pool bytes leaves (PageCacheFor).
func profileEnv(tb testing.TB, path string, pool int64) *testEnv {
	tb.Helper()
	hw, ok := profiles[path]
	if !ok {
		var err error
		if hw, err = config.LoadHardware(path); err != nil {
			tb.Fatal(err)
		}
		profiles[path] = hw
	}
	var err error
	s := sim.New(1)
	dev := func(name string, d config.Device) *sim.Device {
		cfg := sim.DeviceConfig{Channels: d.Channels, BandwidthBytes: float64(d.Bandwidth)}
		for _, x := range []struct {
			dst *sim.Dist
			src config.Distribution
		}{{&cfg.Read, d.Read}, {&cfg.Write, d.Write}, {&cfg.Sync, d.Sync}} {
			if x.src.Dist == "" {
				continue
			}
			if *x.dst, err = server.Dist(x.src); err != nil {
				tb.Fatal(err)
			}
		}
		return sim.NewDevice(s, name, cfg)
	}
	return &testEnv{s: s, env: Env{
		Sim:            s,
		Cores:          sim.NewCores(s, hw.Cores, sim.Time(hw.Quantum)),
		Data:           dev("data", hw.Storage.Data),
		Temp:           dev("temp", hw.Storage.Temp),
		DataOpLatency:  sim.Time(hw.Storage.Data.Read.P50),
		TempOpLatency:  sim.Time(hw.Storage.Temp.Read.P50),
		Costs:          hw.Costs,
		PageSize:       16 * kib,
		CacheBytes:     int64(hw.LLC),
		PageCacheBytes: PageCacheFor(int64(hw.Memory), pool),
	}}
}

// studySecs is the simulated build time of one point, in seconds.
func studySecs(tb testing.TB, rows int64, edit func(*Spec)) float64 {
	r := studyBuild(tb, rows, edit)
	if r.Failed {
		tb.Fatalf("rows %d: failed: %s", rows, r.Reason)
	}
	return secs(r.Duration())
}

// studySecsCosts is studySecs with the profile's costs edited.
func studySecsCosts(tb testing.TB, rows int64, edit func(*Spec), costs func(*config.Costs)) float64 {
	sp := ibSpec(rows)
	edit(&sp)
	te := profileEnv(tb, studyProfile, studyPool)
	costs(&te.env.Costs)
	r := runWith(tb, te, sp)
	if r.Failed {
		tb.Fatalf("rows %d: failed: %s", rows, r.Reason)
	}
	return secs(r.Duration())
}

// studyBuild runs one point of the study on the profile.
func studyBuild(tb testing.TB, rows int64, edit func(*Spec)) Result {
	sp := ibSpec(rows)
	if edit != nil {
		edit(&sp)
	}
	return runWith(tb, profileEnv(tb, studyProfile, studyPool), sp)
}

// The reference's trends on the profile, page cache included, at 1 B rows (the smallest size
// it measured; TestStudyTable shows 1B..8B): the same checks as the test-hardware trend tests
// above, on the machine the scenarios simulate, for the trends the model reproduces with the
// per-record costs measured by model/calib's C transcriptions. The buffer trend ("helps, up to a point, all at
// once") is not reproduced with them: a doubling saves one merge pass (merge_row plus the
// pass's temp I/O, ~30-50 ns per entry on this NVMe) but adds a sort level, and above the
// sorting thread's share of the LLC a level costs sort_row_miss (165 ns, the C sort) — so larger
// buffers are slower (docs/validation.md, "Index-build option study"). What is asserted here
// for the buffer is the model's own mechanism: that it is the missing levels that make it so
// (with sort_row_miss = sort_row the trend turns back).
func TestStudyTrends(t *testing.T) {
	const rows = 1e9
	th := map[bool]map[int]float64{false: {}, true: {}}
	bu := map[bool]map[int64]float64{false: {}, true: {}}
	for _, one := range []bool{false, true} {
		for _, n := range []int{1, 8, 32} {
			th[one][n] = studySecs(t, rows, func(s *Spec) { s.Threads, s.OneAtATime = n, one })
		}
		for _, b := range []int64{32 * mib, 128 * mib, 512 * mib, 2 * gib} {
			bu[one][b] = studySecs(t, rows, func(s *Spec) { s.BufferSize, s.OneAtATime = b, one })
		}
	}
	t.Logf("threads 1/8/32: all at once %.0f/%.0f/%.0f s, one at a time %.0f/%.0f/%.0f s",
		th[false][1], th[false][8], th[false][32], th[true][1], th[true][8], th[true][32])
	t.Logf("buffer 32M/128M/512M/2G: all at once %.0f/%.0f/%.0f/%.0f s, one at a time %.0f/%.0f/%.0f/%.0f s",
		bu[false][32*mib], bu[false][128*mib], bu[false][512*mib], bu[false][2*gib],
		bu[true][32*mib], bu[true][128*mib], bu[true][512*mib], bu[true][2*gib])
	if r := th[false][1] / th[false][8]; r < 1.3 {
		t.Errorf("all at once 1→8 threads: speed-up %.2f, want >= 1.3", r)
	}
	if r := th[false][8] / th[false][32]; r > 1.2 {
		t.Errorf("all at once 8→32 threads: speed-up %.2f, want <= 1.2", r)
	}
	if ra, ro := th[false][1]/th[false][32], th[true][1]/th[true][32]; ro >= ra {
		t.Errorf("1→32 threads: one at a time %.2f, all at once %.2f; want one smaller", ro, ra)
	}
	// The buffer: without the DRAM penalty of the upper sort levels, fewer passes win again.
	cached := map[int64]float64{}
	for _, b := range []int64{32 * mib, 2 * gib} {
		cached[b] = studySecsCosts(t, rows, func(s *Spec) { s.BufferSize = b }, func(c *config.Costs) { c.SortRowMiss = c.SortRow })
	}
	t.Logf("buffer 32M/2G with sort_row_miss = sort_row: %.0f/%.0f s", cached[32*mib], cached[2*gib])
	if cached[2*gib] >= cached[32*mib] {
		t.Errorf("with cached sort levels 2G (%.0f s) is not faster than 32M (%.0f s): the passes saved cost nothing", cached[2*gib], cached[32*mib])
	}
	if bu[false][2*gib]-cached[2*gib] <= bu[false][32*mib]-cached[32*mib] {
		t.Errorf("the DRAM sort penalty is not larger at 2G than at 32M")
	}
	var mr []float64
	for _, c := range []int64{64 * mib, gib} {
		mr = append(mr, studySecs(t, rows, func(s *Spec) { s.Engine, s.MyRocks.MergeCombineReadSize = "myrocks", c }))
	}
	if d := mr[0]/mr[1] - 1; d > 0.05 || d < 0 {
		t.Errorf("MyRocks combine read size 64M vs 1G: %.1f%%, want 0..5%%", 100*d)
	}
}
