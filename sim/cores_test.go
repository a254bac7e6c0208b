package sim

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"
)

// finishTimes runs threads each computing d on c, all spawned at 0, and returns when each ended.
func finishTimes(c *Cores, threads int, d Time) []Time {
	s := c.s
	out := make([]Time, threads)
	for i := range threads {
		s.Spawn(fmt.Sprint("t", i), "fg", func(p *Proc) {
			c.Compute(p, d)
			out[i] = p.Now()
		})
	}
	s.Run(Forever)
	return out
}

func TestCoresTimeSlicingTwoCoresThreeThreads(t *testing.T) {
	// Hand schedule, quantum 10ms: [0,10) A B; [10,20) C A; [20,30) B C; [30,40) A B; [40,50) C.
	// 9 quanta of work on 2 cores take 5 rounds, so the last thread ends at 50ms, not at the
	// fluid 45ms; with a 5ms quantum the 18 quanta fit exactly in 9 rounds = 45ms.
	s := New(1)
	defer s.Close()
	c := NewCores(s, 2, 10*Millisecond)
	got := finishTimes(c, 3, 30*Millisecond)
	if want := []Time{40 * Millisecond, 40 * Millisecond, 50 * Millisecond}; !slices.Equal(got, want) {
		t.Fatalf("finish %v, want %v", got, want)
	}
	st := c.Stats()
	if st.BusyNs != 90*Millisecond {
		t.Fatalf("busy %v", st.BusyNs)
	}
	if st.RunQueueWait.Count() != 3+6 { // 3 first dispatches + 6 preemptions (10, 20, 30ms)
		t.Fatalf("run queue waits %d", st.RunQueueWait.Count())
	}

	s2 := New(1)
	defer s2.Close()
	got = finishTimes(NewCores(s2, 2, 5*Millisecond), 3, 30*Millisecond)
	for _, f := range got {
		if f < 30*Millisecond || f > 45*Millisecond {
			t.Fatalf("quantum 5ms: finish %v outside [30ms, 45ms]", got)
		}
	}
	if slices.Max(got) != 45*Millisecond {
		t.Fatalf("quantum 5ms: makespan %v", slices.Max(got))
	}
}

// With c cores and c+k threads each computing X = m quanta, round robin finishes the work
// in ceil((c+k)·m / c) rounds of one quantum; nobody finishes before X.
func TestCoresMakespan(t *testing.T) {
	const q = Millisecond
	for c := 1; c <= 4; c++ {
		for k := 0; k <= 5; k++ {
			for _, m := range []int{1, 3, 7} {
				s := New(1)
				cores := NewCores(s, c, q)
				got := finishTimes(cores, c+k, Time(m)*q)
				s.Close()
				rounds := ((c+k)*m + c - 1) / c
				if mx := slices.Max(got); mx != Time(rounds)*q {
					t.Errorf("c=%d k=%d m=%d: makespan %v, want %v", c, k, m, mx, Time(rounds)*q)
				}
				if mn := slices.Min(got); mn < Time(m)*q {
					t.Errorf("c=%d k=%d m=%d: a thread finished at %v before its %v of CPU", c, k, m, mn, Time(m)*q)
				}
				if u := cores.Utilization(); k > 0 && m > 1 && u < float64((c+k)*m)/float64(c*rounds)-1e-9 {
					t.Errorf("utilization %v", u)
				}
			}
		}
	}
}

func TestCoresUncontendedIsOneSlice(t *testing.T) {
	s := New(1)
	defer s.Close()
	c := NewCores(s, 2, Millisecond)
	got := finishTimes(c, 2, Second)
	if got[0] != Second || got[1] != Second || c.Stats().Slices != 2 || s.EventsFired() != 4 {
		t.Fatalf("finish %v slices %d events %d", got, c.Stats().Slices, s.EventsFired())
	}
	s.Spawn("zero", "fg", func(p *Proc) { c.Compute(p, 0) })
	before := s.EventsFired()
	s.Run(Forever)
	if s.EventsFired() != before+1 { // only the spawn
		t.Fatal("Compute(0) scheduled events")
	}
}

// tickCores is the literal round-robin scheduler the fast one must equal: every slice is at
// most one quantum, and at each boundary the thread yields iff someone waits.
type tickCores struct {
	q     Time
	free  int
	queue []*Proc
}

func (c *tickCores) Compute(p *Proc, d Time) {
	if c.free > 0 {
		c.free--
	} else {
		c.queue = append(c.queue, p)
		p.Park()
	}
	for rem := d; ; {
		sl := min(rem, c.q)
		p.Sleep(sl)
		if rem -= sl; rem == 0 {
			break
		}
		if len(c.queue) > 0 {
			w := c.queue[0]
			c.queue = append(c.queue[1:], p)
			w.Wake(0)
			p.Park()
		}
	}
	if len(c.queue) > 0 {
		w := c.queue[0]
		c.queue = c.queue[1:]
		w.Wake(0)
		return
	}
	c.free++
}

type computer interface{ Compute(p *Proc, d Time) }

// TestCoresAgainstTickingOracle runs random sleep/compute workloads on both schedulers and
// compares every thread's completion times.
func TestCoresAgainstTickingOracle(t *testing.T) {
	for seed := range uint64(40) {
		r := rand.New(rand.NewPCG(seed, 7))
		n := 1 + r.IntN(4)
		q := Time(1+r.IntN(5)) * Millisecond
		threads := 1 + r.IntN(9)
		type step struct{ sleep, cpu Time }
		plan := make([][]step, threads)
		for i := range plan {
			for range 1 + r.IntN(8) {
				plan[i] = append(plan[i], step{Time(r.Int64N(int64(20 * Millisecond))), Time(1 + r.Int64N(int64(30*Millisecond)))})
			}
		}
		run := func(mk func(s *Sim) computer) ([]string, uint64) {
			s := New(seed)
			defer s.Close()
			c := mk(s)
			var log []string
			for i, st := range plan {
				s.Spawn(fmt.Sprint("t", i), "fg", func(p *Proc) {
					for j, x := range st {
						p.Sleep(x.sleep)
						c.Compute(p, x.cpu)
						log = append(log, fmt.Sprintf("%s.%d@%d", p.Name(), j, p.Now()))
					}
				})
			}
			s.Run(Forever)
			return log, s.EventsFired()
		}
		fast, fastEv := run(func(s *Sim) computer { return NewCores(s, n, q) })
		slow, slowEv := run(func(s *Sim) computer { return &tickCores{q: q, free: n} })
		if !slices.Equal(fast, slow) {
			t.Fatalf("seed %d (cores %d, quantum %v): fast\n%v\nticking\n%v", seed, n, q, fast, slow)
		}
		if fastEv > slowEv {
			t.Errorf("seed %d: fast scheduler fired %d events, ticking %d", seed, fastEv, slowEv)
		}
	}
}

// A thread keeps its core between two computations that nothing blocks between (an
// uncontended mutex, say): the second one runs at once even though another thread is queued,
// and the queued thread gets the core only when the first blocks. Without the held core the
// first thread would queue behind the second between its two computations.
func TestCoresThreadKeepsCoreUntilItBlocks(t *testing.T) {
	s := New(1)
	defer s.Close()
	c := NewCores(s, 1, 10*Millisecond)
	m := NewMutex(s, "m", MutexOptions{})
	var aDone, bStart Time
	s.Spawn("a", "fg", func(p *Proc) {
		c.Compute(p, Millisecond)
		m.Lock(p) // uncontended: does not block
		c.Compute(p, Millisecond)
		m.Unlock(p)
		aDone = p.Now()
		p.Sleep(Millisecond) // blocks: the core goes to b
		c.Compute(p, Millisecond)
	})
	s.Spawn("b", "fg", func(p *Proc) {
		c.Compute(p, Millisecond)
		bStart = p.Now() - Millisecond
	})
	s.Run(Forever)
	if aDone != 2*Millisecond {
		t.Fatalf("a finished its two computations at %v, want 2ms (it kept the core)", aDone)
	}
	if bStart != 2*Millisecond {
		t.Fatalf("b started at %v, want 2ms (when a blocked)", bStart)
	}
	if st := c.Stats(); st.BusyNs != 4*Millisecond {
		t.Fatalf("busy %v, want 4ms", st.BusyNs)
	}
}

// Keeping the core does not escape time slicing: computations chained without blocking share
// one quantum, and a waiter gets the core when it ends.
func TestCoresHeldCoreStillTimeSliced(t *testing.T) {
	s := New(1)
	defer s.Close()
	c := NewCores(s, 1, 4*Millisecond)
	var bStart Time = -1
	s.Spawn("a", "fg", func(p *Proc) {
		for range 10 {
			c.Compute(p, Millisecond)
		}
	})
	s.Spawn("b", "fg", func(p *Proc) {
		c.Compute(p, Millisecond)
		bStart = p.Now() - Millisecond
	})
	s.Run(Forever)
	if bStart != 4*Millisecond {
		t.Fatalf("b started at %v, want 4ms (end of a's quantum)", bStart)
	}
}

// ComputeThenPark (SleepAfterCompute) is Compute followed by Sleep run as kernel continuations:
// random workloads of computations, chained computations, sleeps and mutexes give the same
// trace, the same event count and the same statistics either way, with fewer coroutine
// resumes. A mutation that changes one continuation (the order of the wake-up and the core's
// release, the queued time) changes the trace.
func TestComputeThenParkEqualsComputeThenSleep(t *testing.T) {
	for seed := range uint64(60) {
		r := rand.New(rand.NewPCG(seed, 11))
		n := 1 + r.IntN(4)
		q := Time(r.IntN(4)) * Millisecond // 0: no time slicing
		threads := 1 + r.IntN(12)
		type step struct {
			cpu, sleep Time
			chain      bool // a second computation right after (keeps the core)
			lock       bool
		}
		plan := make([][]step, threads)
		for i := range plan {
			for range 1 + r.IntN(10) {
				// Whole-millisecond times and zero sleeps make same-instant ties, where the
				// order of a continuation's scheduling shows in the trace.
				cpu, sleep := Time(r.Int64N(int64(8*Millisecond))), Time(r.Int64N(int64(3*Millisecond)))
				if r.IntN(2) == 0 {
					cpu, sleep = Time(r.IntN(5))*Millisecond, Time(r.IntN(2))*Millisecond
				}
				plan[i] = append(plan[i], step{cpu, sleep, r.IntN(4) == 0, r.IntN(3) == 0})
			}
		}
		run := func(fused bool) ([]string, uint64, CoreStats, uint64) {
			s := New(seed)
			defer s.Close()
			c := NewCores(s, n, q)
			m := NewMutex(s, "m", MutexOptions{Cores: c, Spin: 50 * Microsecond, Handoff: 5 * Microsecond})
			var log []string
			resumes := uint64(0)
			for i, st := range plan {
				s.Spawn(fmt.Sprint("t", i), "fg", func(p *Proc) {
					for j, x := range st {
						if x.lock {
							m.Lock(p)
							c.Compute(p, x.cpu/4)
							m.Unlock(p)
						}
						if x.chain {
							c.Compute(p, x.cpu/2)
						}
						if fused {
							p.SleepAfterCompute(c, x.cpu, x.sleep)
						} else {
							c.Compute(p, x.cpu)
							p.Sleep(x.sleep)
						}
						resumes++
						log = append(log, fmt.Sprintf("%s.%d@%d", p.Name(), j, p.Now()))
					}
				})
			}
			s.Run(Forever)
			st := c.Stats()
			return log, s.EventsFired(), st, resumes
		}
		a, aEv, aSt, _ := run(false)
		b, bEv, bSt, _ := run(true)
		if !slices.Equal(a, b) {
			t.Fatalf("seed %d (cores %d, quantum %v): Compute+Sleep\n%v\nSleepAfterCompute\n%v", seed, n, q, a, b)
		}
		if aEv != bEv {
			t.Fatalf("seed %d: %d events, fused %d", seed, aEv, bEv)
		}
		if aSt.BusyNs != bSt.BusyNs || aSt.Slices != bSt.Slices || aSt.RunQueueWait.Count() != bSt.RunQueueWait.Count() ||
			aSt.RunQueueWait.Sum() != bSt.RunQueueWait.Sum() {
			t.Fatalf("seed %d: stats %+v, fused %+v", seed, aSt, bSt)
		}
	}
}

// Compute resumes the body once per call, SleepAfterCompute once per call: threads that
// compute and sleep in a loop on a contended core (a wait in the run queue, three slices, a
// sleep) cost two coroutine resumes per iteration with Compute then Sleep (the end of the
// last slice, the end of the sleep; the waits and the other slice ends are kernel
// continuations), one fused.
func TestSleepAfterComputeResumesOnce(t *testing.T) {
	run := func(fused bool) (uint64, uint64) {
		s := New(1)
		defer s.Close()
		c := NewCores(s, 1, Millisecond)
		for i := range 3 {
			s.Spawn(fmt.Sprint("t", i), "fg", func(p *Proc) {
				for range 100 {
					if fused {
						p.SleepAfterCompute(c, 3*Millisecond, 100*Microsecond)
					} else {
						c.Compute(p, 3*Millisecond)
						p.Sleep(100 * Microsecond)
					}
				}
			})
		}
		s.Run(Forever)
		if st := c.Stats(); st.RunQueueWait.Count() < 300 {
			t.Fatalf("only %d run-queue waits: the test does not contend", st.RunQueueWait.Count())
		}
		return s.Resumes(), s.EventsFired()
	}
	slow, slowEv := run(false)
	fast, fastEv := run(true)
	if fast != 3*101 { // the start and one per iteration, per thread
		t.Fatalf("fused: %d resumes, want %d", fast, 3*101)
	}
	if slow != 3*(1+2*100) || slowEv != fastEv {
		t.Fatalf("Compute+Sleep: %d resumes and %d events; fused: %d and %d", slow, slowEv, fast, fastEv)
	}
}
