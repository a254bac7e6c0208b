package workload

import (
	"fmt"

	"github.com/ddlsim/ddlsim/model/config"
	"github.com/ddlsim/ddlsim/model/metrics"
	"github.com/ddlsim/ddlsim/model/server"
	"github.com/ddlsim/ddlsim/sim"
)

// OtherCPU is the `other_cpu:` workload block: processes on the machine that are neither the
// server nor its benchmark client (a compiler, another test) and take a share of the same
// cores. A measured run states how much: the lab records it per second as other_cpu_util
// (machine busy time not spent in mariadbd or sysbench, lab/README.md), and a scenario that
// reproduces such a run sets util to its mean.
//
// Each of its threads computes in bursts and sleeps so that its CPU time keeps to its share of
// util × cores; a thread that falls behind (the cores were busy) computes again at once, as a
// CPU-bound process does. What it got is reported as other_cpu_util.
type OtherCPU struct {
	Util    float64         `yaml:"util"`    // fraction of the machine's CPU time, 0-1
	Threads int             `yaml:"threads"` // runnable threads (default: 2 per core)
	Burst   config.Duration `yaml:"burst"`   // CPU per burst (default: the scheduler quantum, else 4ms)
	Start   config.Duration `yaml:"start"`
}

func (b *OtherCPU) Defaults(sc *config.Scenario, d config.Defaulter) {
	d.Def("threads", b.Threads == 0, func() { b.Threads = 2 * max(sc.HardwareProfile.Cores, 1) })
	d.Def("burst", b.Burst == 0, func() {
		b.Burst = sc.HardwareProfile.Quantum
		if b.Burst <= 0 {
			b.Burst = 4 * config.Millisecond
		}
	})
}

func (b *OtherCPU) Check(sc *config.Scenario, c *config.Checker) {
	if b.Util <= 0 || b.Util >= 1 {
		c.Errorf("util", nil, "expected a fraction of the machine's CPU time between 0 and 1 (exclusive)")
	}
	c.Field("threads", b.Threads, config.AtLeast(1, "at least 1 thread"))
	if b.Burst <= 0 {
		c.Errorf("burst", nil, "expected a duration > 0")
	}
	c.Field("start", b.Start, config.AtLeast(0, "a duration >= 0"))
	c.Start(sc, "start", b.Start)
}

// Launch spawns the threads.
func (b *OtherCPU) Launch(env Env) (Running, error) {
	srv := env.Srv
	share := b.Util * float64(srv.Cores.N()) / float64(b.Threads) // of one core, per thread
	if share <= 0 || share > 1 {
		return nil, fmt.Errorf("other_cpu: util %g over %d threads asks %.2f of a core per thread: use more threads", b.Util, b.Threads, share)
	}
	at := env.OnClock(b.Start)
	burst := sim.Time(b.Burst)
	for i := 0; i < b.Threads; i++ {
		srv.Spawn(fmt.Sprintf("other[%d]", i), "other", func(t *server.Thread) {
			if at > t.Now() {
				t.Sleep(at - t.Now())
			}
			t0, used := t.Now(), sim.Time(0)
			for {
				srv.Cores.Compute(t.Proc, burst)
				used += burst
				srv.Stats.OtherCPUNs += uint64(burst)
				if next := t0 + sim.Time(float64(used)/share); next > t.Now() {
					t.Proc.Sleep(next - t.Now())
				}
			}
		})
	}
	return otherSummary{}, nil
}

type otherSummary struct{}

func (otherSummary) Summary(*metrics.Series, float64) metrics.Summary { return nil }
