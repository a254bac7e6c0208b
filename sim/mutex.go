package sim

import (
	"fmt"
	"slices"
)

// Mutex is a mutex with optional spin-then-sleep and a wake-up latency, in one of two
// disciplines:
//
//   - FIFO hand-off (the default): sleepers are served strictly in order and ownership passes
//     directly to the oldest one at Unlock (no barging).
//   - WakeAll, InnoDB's TTASEventMutex (include/ib0mutex.h): Unlock clears the lock word and,
//     if anyone sleeps, os_event_set wakes every sleeper; each woken thread spins and tries
//     again and sleeps again if it lost. A running thread may take the free mutex before the
//     woken ones (barging), so the owner is always a thread that is running, never one still
//     waiting for a CPU: under CPU saturation a hand-off discipline would make each contended
//     critical section last a run-queue wait.
//
// InnoDB's mutexes spin (burning CPU) before they sleep, and a sleeper is woken by a futex
// wake-up that takes microseconds; both are first-order effects when a DDL holds a buffer-pool
// mutex for a long scan, so both are modelled.
type Mutex struct {
	s       *Sim
	name    string
	opt     MutexOptions
	holder  *Proc
	since   Time // when holder acquired
	waiters fifo[*Proc]
	stats   MutexStats
	// per-kind histograms indexed by Proc.kindID; they alias the maps in stats
	holdK, waitK []*Histogram
}

type MutexOptions struct {
	Cores *Cores // where spinning burns CPU; nil = spinning uses no core (but still takes Spin)
	Spin  Time   // a contended Lock spins up to this long (on a core) before sleeping
	// SpinRounds splits Spin into rounds with a look at the lock word after each
	// (TTASEventMutex::is_free: up to innodb_sync_spin_loops rounds of ut_delay): a spinner
	// takes the mutex at the end of the first round in which it is free. 0 or 1 = one round,
	// the whole Spin before the look.
	SpinRounds int
	// Handoff is the delay between Unlock and the next waiter running (futex wake). In FIFO
	// mode the mutex is owned by the waiter during it, so it counts as the waiter's wait, not
	// its hold; in WakeAll mode every sleeper resumes after it and retries.
	Handoff Time
	// WakeAll selects InnoDB's discipline: Unlock frees the mutex and wakes all sleepers,
	// who race for it with running threads (see Mutex).
	WakeAll bool
}

type MutexStats struct {
	Acquisitions uint64
	Contended    uint64
	Wait         Histogram             // all acquisitions' wait, 0 for uncontended ones
	HoldByKind   map[string]*Histogram // hold time by holder Proc.Kind()
	WaitByKind   map[string]*Histogram
}

// Kinds lists the process kinds seen in WaitByKind, sorted, so reports need not range over
// a map (whose order would leak into the output).
func (st *MutexStats) Kinds() []string {
	ks := make([]string, 0, len(st.WaitByKind))
	for k := range st.WaitByKind {
		ks = append(ks, k)
	}
	slices.Sort(ks)
	return ks
}

func NewMutex(s *Sim, name string, opt MutexOptions) *Mutex {
	if opt.Spin < 0 || opt.Handoff < 0 {
		panic(fmt.Sprintf("sim: mutex %s: negative Spin or Handoff", name))
	}
	return &Mutex{s: s, name: name, opt: opt, stats: MutexStats{
		HoldByKind: map[string]*Histogram{},
		WaitByKind: map[string]*Histogram{},
	}}
}

func (m *Mutex) Name() string { return m.name }

// ResetStats zeroes the statistics (e.g. at the end of a warm-up), keeping the mutex's state.
func (m *Mutex) ResetStats() {
	m.stats.Acquisitions, m.stats.Contended = 0, 0
	m.stats.Wait.Reset()
	for _, h := range m.stats.HoldByKind {
		h.Reset()
	}
	for _, h := range m.stats.WaitByKind {
		h.Reset()
	}
}
func (m *Mutex) Holder() *Proc      { return m.holder }
func (m *Mutex) Waiters() int       { return m.waiters.len() }
func (m *Mutex) Stats() *MutexStats { return &m.stats }

// Lock acquires m for p. Uncontended, it takes no virtual time and schedules no event.
func (m *Mutex) Lock(p *Proc) {
	if m.holder == nil && m.waiters.len() == 0 {
		m.acquired(p, 0)
		return
	}
	if m.holder == p {
		panic(fmt.Sprintf("sim: mutex %s: recursive Lock by %s", m.name, p.name))
	}
	m.stats.Contended++
	start := m.s.now
	if m.opt.WakeAll {
		m.lockWakeAll(p, start)
		return
	}
	if m.spin(p, func() bool { return m.holder == nil && m.waiters.len() == 0 }) {
		m.acquired(p, m.s.now-start)
		return
	}
	m.waiters.push(p)
	p.Park()
	// Unlock made p the holder before waking it.
	m.acquired(p, m.s.now-start)
}

// lockWakeAll is TTASEventMutex::spin_and_try_lock + wait: spin, try, sleep until the next
// Unlock wakes everyone, and start over.
func (m *Mutex) lockWakeAll(p *Proc, start Time) {
	for {
		if m.spin(p, func() bool { return m.holder == nil }) {
			m.acquired(p, m.s.now-start)
			return
		}
		m.waiters.push(p)
		p.Park()
		// Woken: the thread must be on a CPU to look at the lock word again.
		if m.opt.Cores != nil {
			m.opt.Cores.Compute(p, retryCPU)
		}
		if m.holder == nil {
			m.acquired(p, m.s.now-start)
			return
		}
	}
}

// spin spins for up to opt.Spin in opt.SpinRounds rounds and reports whether free() held
// after one of them (after the only look, with no spin configured).
func (m *Mutex) spin(p *Proc, free func() bool) bool {
	if m.opt.Spin <= 0 {
		return free()
	}
	n := Time(max(1, m.opt.SpinRounds))
	for i := Time(0); i < n; i++ {
		d := m.opt.Spin*(i+1)/n - m.opt.Spin*i/n
		if m.opt.Cores != nil {
			m.opt.Cores.Compute(p, d)
		} else {
			p.Sleep(d)
		}
		if free() {
			return true
		}
	}
	return false
}

// retryCPU is what a woken sleeper spends on a core before it tries the lock word again
// (returning from the futex wait, reading one cache line).
const retryCPU = 500 * Nanosecond

// TryLock acquires m if it is free and nobody is queued; it never blocks.
func (m *Mutex) TryLock(p *Proc) bool {
	if m.holder != nil || (m.waiters.len() > 0 && !m.opt.WakeAll) {
		return false
	}
	m.acquired(p, 0)
	return true
}

func (m *Mutex) acquired(p *Proc, wait Time) {
	m.holder = p
	m.since = m.s.now
	m.stats.Acquisitions++
	m.stats.Wait.Record(wait)
	m.kindHist(&m.waitK, m.stats.WaitByKind, p).Record(wait)
}

// Unlock releases m; with sleepers queued, the oldest becomes the holder and runs after
// Handoff. Unlock by a process that does not hold m panics.
func (m *Mutex) Unlock(p *Proc) {
	if m.holder != p {
		h := "nobody"
		if m.holder != nil {
			h = m.holder.name
		}
		panic(fmt.Sprintf("sim: mutex %s: Unlock by %s, held by %s", m.name, p.name, h))
	}
	m.kindHist(&m.holdK, m.stats.HoldByKind, p).Record(m.s.now - m.since)
	if m.waiters.len() == 0 {
		m.holder = nil
		return
	}
	if m.opt.WakeAll {
		m.holder = nil
		for m.waiters.len() > 0 {
			m.waiters.pop().Wake(m.opt.Handoff)
		}
		return
	}
	w := m.waiters.pop()
	m.holder = w
	w.Wake(m.opt.Handoff)
}

func (m *Mutex) kindHist(byID *[]*Histogram, byName map[string]*Histogram, p *Proc) *Histogram {
	k := int(p.kindID)
	if k < len(*byID) {
		if h := (*byID)[k]; h != nil {
			return h
		}
	} else {
		*byID = append(*byID, make([]*Histogram, k+1-len(*byID))...)
	}
	h := new(Histogram)
	(*byID)[k] = h
	byName[p.kind] = h
	return h
}
