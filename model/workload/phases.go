package workload

import (
	"fmt"
	"sort"

	"github.com/ddlsim/ddlsim/model/config"
	"github.com/ddlsim/ddlsim/model/server"
	"github.com/ddlsim/ddlsim/sim"
)

// Phase changes a load at a given time: from `at` (on the report clock) it runs with
// `threads` client connections (0: unchanged) and, when given, `rate` transactions/s over
// them (0: closed loop). A load's phases describe a day — the night's quarter of the load
// from 22:00, the batch job's burst — or a load that grows while a DDL runs.
type Phase struct {
	At      config.Duration `yaml:"at"`
	Threads int             `yaml:"threads,omitempty"`
	Rate    *float64        `yaml:"rate,omitempty"`
}

// checkPhases judges a load's stop and phases (fields "stop", "phases[i].*").
func checkPhases(sc *config.Scenario, c *config.Checker, start, stop config.Duration, phases []Phase) {
	c.Field("stop", stop, config.AtLeast(0, "a duration >= 0 (0 = until the end)"))
	if stop != 0 && stop <= start {
		c.Errorf("stop", []string{"start"}, "expected a stop after start (%s): both are on the report clock", start)
	}
	for i, p := range phases {
		key := func(f string) string { return fmt.Sprintf("phases[%d].%s", i, f) }
		if p.At < 0 || start > 0 && p.At <= start {
			c.Errorf(key("at"), nil, "expected a time after the load's start (%s), on the report clock", start)
		}
		if i > 0 && p.At <= phases[i-1].At {
			c.Errorf(key("at"), nil, "expected phases in time order: after phases[%d].at = %s", i-1, phases[i-1].At)
		}
		c.Start(sc, key("at"), p.At)
		c.Field(key("threads"), p.Threads, config.AtLeast(0, "at least 0 threads (0 = unchanged)"))
		if p.Rate != nil && *p.Rate < 0 {
			c.Errorf(key("rate"), nil, "expected a rate >= 0 (0 = closed loop)")
		}
		if p.Threads == 0 && p.Rate == nil {
			c.Errorf(key("at"), nil, "a phase changes threads, rate or both: give at least one")
		}
	}
}

// loadPlan is a load's threads and rate over time, in simulation time.
type loadPlan struct {
	start, stop sim.Time // stop 0: until the end
	steps       []loadStep
}

type loadStep struct {
	at      sim.Time
	threads int
	rate    float64
}

func newLoadPlan(env Env, threads int, rate float64, start, stop config.Duration, phases []Phase) *loadPlan {
	p := &loadPlan{start: env.OnClock(start)}
	if stop > 0 {
		p.stop = env.Warm + sim.Time(stop)
	}
	p.steps = []loadStep{{at: p.start, threads: threads, rate: rate}}
	for _, ph := range phases {
		s := p.steps[len(p.steps)-1]
		s.at = env.Warm + sim.Time(ph.At)
		if ph.Threads > 0 {
			s.threads = ph.Threads
		}
		if ph.Rate != nil {
			s.rate = *ph.Rate
		}
		p.steps = append(p.steps, s)
	}
	return p
}

// maxThreads is the most connections the plan ever has open.
func (p *loadPlan) maxThreads() int {
	n := 0
	for _, s := range p.steps {
		n = max(n, s.threads)
	}
	return n
}

// step is the plan's step at time t.
func (p *loadPlan) step(t sim.Time) loadStep {
	i := sort.Search(len(p.steps), func(i int) bool { return p.steps[i].at > t }) - 1
	return p.steps[max(i, 0)]
}

// nextActive is the first step boundary after t at which client i is active, or -1.
func (p *loadPlan) nextActive(i int, t sim.Time) sim.Time {
	for _, s := range p.steps {
		if s.at > t && i < s.threads && (p.stop == 0 || s.at < p.stop) {
			return s.at
		}
	}
	return -1
}

// startPlannedClients is startClients for a load with phases or a stop: it spawns the most
// threads the plan ever uses; client i runs while the current step has more than i threads
// (sleeping until a step activates it otherwise) and until stop, pacing its arrivals by the
// current step's rate over the step's threads.
func startPlannedClients(srv *server.Server, prefix string, p *loadPlan, txn func(c *client, k int) bool) {
	n := p.maxThreads()
	for i := 0; i < n; i++ {
		name := fmt.Sprintf("%s[%d]", prefix, i)
		r, src := srv.Sim.StreamWithSource(name)
		c := &client{r: r, src: src}
		srv.Spawn(name, "fg", func(t *server.Thread) {
			c.t = t
			if p.start > t.Now() {
				t.Sleep(p.start - t.Now())
			}
			c.next = t.Now()
			noRTT := srv.Scenario.HardwareProfile.ClientRTT == 0
			for k := 0; ; k++ {
				now := t.Now()
				if p.stop > 0 && now >= p.stop {
					return
				}
				s := p.step(now)
				if i >= s.threads {
					next := p.nextActive(i, now)
					if next < 0 {
						return
					}
					t.Sleep(next - now)
					c.next = t.Now() // a connection opened now: its arrivals start now
					continue
				}
				c.gap = 0
				if s.rate > 0 {
					c.gap = float64(s.threads) / s.rate * 1e9
					if c.next < s.at {
						c.next = s.at // the rate changed: arrivals from the change on
					}
				}
				if !txn(c, k) {
					t.StatementGone()
					return
				}
				t.StatementEnd() // the transaction's last statement
				if noRTT {
					t.Pay()
				}
			}
		})
	}
}
