package runner

import (
	"testing"

	"github.com/ddlsim/ddlsim/model/config"
)

func loadInternal(t *testing.T, y string) *config.Scenario {
	t.Helper()
	sc, err := config.LoadBytes("test.yaml", []byte(y), "../../scenarios")
	if err != nil {
		t.Fatal(err)
	}
	return sc
}

// The sampler is one event: however many report intervals a run has, the pending set stays
// at the size of its actors (booking every interval in advance made it grow with the run
// and overflowed the kernel's 16M event slots on long runs with short intervals).
func TestSamplerIsOneEvent(t *testing.T) {
	sc := loadInternal(t, `
name: sampler
hardware: profiles/8c-64g.yaml
mysql: {innodb_buffer_pool_size: 128MiB}
data: [{name: sbtest, rows: 10k}]
warmup: 0s
duration: 20s
workload: [{sysbench: {mix: oltp_point_select, threads: 2}}]
report: {interval: 100us}
`)
	peak, samples := 0, 0
	sampleHook = func(m *Model) {
		peak = max(peak, m.Sim.Pending())
		samples++
	}
	defer func() { sampleHook = nil }()
	if _, err := Run(sc, Options{}); err != nil {
		t.Fatal(err)
	}
	if samples != 200_000 {
		t.Errorf("%d samples, want 200000", samples)
	}
	if peak > 100 {
		t.Errorf("up to %d events pending in a 2-client run with 200000 intervals", peak)
	}
}

// Warm-up keeps no transaction latencies past a simulated second: nothing reads them before
// the first measured interval, and a long warm-up used to keep every one (gigabytes).
func TestWarmupKeepsNoLatencies(t *testing.T) {
	sc := loadInternal(t, `
name: warmup
hardware: profiles/8c-64g.yaml
mysql: {innodb_buffer_pool_size: 128MiB}
data: [{name: sbtest, rows: 10k}]
warmup: 20s
duration: 1s
workload: [{sysbench: {mix: oltp_point_select, threads: 8}}]
`)
	most, trims := 0, 0
	trimHook = func(kept int) {
		most = max(most, kept)
		trims++
	}
	defer func() { trimHook = nil }()
	res, err := Run(sc, Options{})
	if err != nil {
		t.Fatal(err)
	}
	perSecond, _ := res.Summary.Get("tps_mean")
	if trims != 19 {
		t.Errorf("%d trims in a 20 s warm-up, want one per second before warm (19)", trims)
	}
	if float64(most) > 1.5*perSecond {
		t.Errorf("up to %d latencies kept during warm-up, %.0f transactions per second", most, perSecond)
	}
	if most == 0 {
		t.Error("the warm-up ran no transactions")
	}
}
