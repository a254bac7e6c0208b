package sim

import "fmt"

// Cores is a pool of N CPUs with a FIFO run queue and time slicing.
//
// Scheduling is round-robin: a thread on a core runs slices of at most one quantum while the
// run queue is non-empty; at the end of a slice it goes to the back of the queue and its core
// passes to the head. While nobody waits it keeps the core, and the kernel does not tick: a
// long computation is one event, and an arrival in the run queue shortens the running slices
// to their next quantum boundary (measured from when each was dispatched). The outcome equals
// checking the queue at every quantum boundary, with fewer events.
type Cores struct {
	s       *Sim
	quantum Time
	free    []int32 // idle cores; non-empty only while the run queue is empty
	run     []coreRun
	queue   fifo[queued]
	stats   CoreStats
	dseq    uint64  // slice counter: orders slices that started at the same instant
	scratch []int32 // preemptRunning's candidates, kept to avoid allocating
}

type coreRun struct {
	p          *Proc // nil while idle or handed to a waiter that has not resumed yet
	start, end Time  // start of the current quantum; end of the current slice
	busyFrom   Time  // when the current slice began (for BusyNs)
	seq        uint64
}

type queued struct {
	p     *Proc
	since Time
}

type CoreStats struct {
	BusyNs       Time // core-nanoseconds spent computing
	RunQueueWait Histogram
	// Slices counts runs on a core: from dispatch (or continuation) to preemption or completion.
	// An uncontended computation is one slice however long it is.
	Slices uint64
}

// NewCores returns n cores; quantum <= 0 disables time slicing (run to completion).
func NewCores(s *Sim, n int, quantum Time) *Cores {
	if n <= 0 {
		panic(fmt.Sprintf("sim: NewCores(%d)", n))
	}
	c := &Cores{s: s, quantum: quantum, run: make([]coreRun, n), free: make([]int32, n)}
	for i := range c.free {
		c.free[i] = int32(n - 1 - i) // pop order 0, 1, 2, ...
	}
	return c
}

func (c *Cores) N() int { return len(c.run) }

// Busy is the number of cores running a thread now.
func (c *Cores) Busy() int { return len(c.run) - len(c.free) }

// RunQueue is the number of threads waiting for a core.
func (c *Cores) RunQueue() int { return c.queue.len() }

// Stats returns a snapshot; BusyNs includes the elapsed part of slices still running.
func (c *Cores) Stats() CoreStats {
	st := c.stats
	st.RunQueueWait = c.stats.RunQueueWait.snapshot()
	now := c.s.now
	for i := range c.run {
		if r := &c.run[i]; r.p != nil {
			st.BusyNs += now - r.busyFrom
		}
	}
	return st
}

// Utilization is BusyNs / (N × elapsed) over [0, Now].
func (c *Cores) Utilization() float64 {
	if c.s.now == 0 {
		return 0
	}
	return float64(c.Stats().BusyNs) / (float64(len(c.run)) * float64(c.s.now))
}

// Compute makes p use a CPU for d of CPU time: it waits in the run queue while all cores are
// busy and is time-sliced (quantum) while others wait.
//
// A thread keeps its core after Compute returns until it blocks (Park, Sleep, I/O, a contended
// mutex): a later Compute at the same instant continues on that core, in the same quantum,
// without queueing. So a thread that takes an uncontended mutex between two computations holds
// it only for the CPU work inside, as on a real machine, instead of also for a run-queue wait.
func (c *Cores) Compute(p *Proc, d Time) {
	if d <= 0 {
		return
	}
	// The loop of slices and run-queue waits runs as kernel continuations of p's wake-ups
	// (kstep), as ComputeThenPark's does; p's body is resumed once, at the end of the last
	// slice, instead of at every slice end and hand-off. Same events, same order.
	k := &p.k
	k.c, k.then, k.rem = c, nil, d
	core, qstart, queued := c.acquire(p)
	k.core, k.qstart = core, qstart
	if queued {
		k.state = kWaitCore
	} else {
		k.state = kSlice
		c.startSlice(p, core, qstart, d)
	}
	p.Park() // p holds no core here (acquire took it over), so Park releases nothing
}

// ComputeThenPark is Compute(p, d) followed, at the instant it returns, by then() and
// p.Park(): the same events, in the same order, with the same results, but p's coroutine is
// not resumed in between. Its slices' ends, its run-queue waits and the hand-off of its core
// run as kernel continuations of p's own wake-up events, and the body resumes only when
// something wakes p after then. then runs in a plain event or in p's body; it must not block:
// it arranges p's wake-up (a timer, an I/O, a place in a waiter list). A thread's "pay for
// the CPU, then sleep" (a client's statement then its round trip) is one coroutine resume
// instead of three.
func (c *Cores) ComputeThenPark(p *Proc, d Time, then func()) {
	if d <= 0 {
		then()
		p.Park()
		return
	}
	k := &p.k
	k.c, k.then, k.rem = c, then, d
	core, qstart, queued := c.acquire(p)
	k.core, k.qstart = core, qstart
	if queued {
		k.state = kWaitCore
	} else {
		k.state = kSlice
		c.startSlice(p, core, qstart, d)
	}
	p.Park()
}

// kstep advances a ComputeThenPark at one of p's wake-ups (a slice's end or the hand-off of
// a core): the code Compute's loop runs at that point, in a plain event.
func (c *Cores) kstep(p *Proc) {
	k := &p.k
	if k.state == kWaitCore {
		k.core, k.qstart = c.granted(p)
		k.state = kSlice
		c.startSlice(p, k.core, k.qstart, k.rem)
		return
	}
	rem, qstart, more, queued := c.endSlice(p, k.core, k.qstart, k.rem)
	k.rem, k.qstart = rem, qstart
	switch {
	case !more:
		then := k.then
		k.state, k.then, k.c = kNone, nil, nil
		if then == nil { // Compute: the body goes on, keeping the core
			c.s.resumeNow(p)
			return
		}
		then()
		if p.held != nil { // what Park does before it yields
			p.held.releaseHeld(p)
		}
	case queued:
		k.state = kWaitCore
	default:
		c.startSlice(p, k.core, qstart, rem)
	}
}

// acquire gives p a core for a computation: the one it kept (unless its quantum ran out
// while others wait), a free one, or a place in the run queue (queued: p must wait for the
// hand-off, then call granted).
func (c *Cores) acquire(p *Proc) (core int32, qstart Time, queued bool) {
	s := c.s
	switch {
	case p.held == c:
		core, qstart = p.heldCore, p.heldSlice
		p.held = nil
		if c.quantum > 0 && c.queue.len() > 0 && s.now-qstart >= c.quantum {
			// Its quantum ran out while others wait: round-robin takes the core now.
			c.handoff(core)
			c.enqueue(p)
			return 0, 0, true
		}
		return core, qstart, false
	case len(c.free) > 0:
		n := len(c.free)
		core, qstart = c.free[n-1], s.now
		c.free = c.free[:n-1]
		c.stats.RunQueueWait.Record(0)
		return core, qstart, false
	default:
		c.enqueue(p)
		return 0, 0, true
	}
}

// startSlice runs p on core for at most rem, cut at the next quantum boundary while others
// wait; p's wake-up is the slice's end.
func (c *Cores) startSlice(p *Proc, core int32, qstart, rem Time) {
	s := c.s
	slice := rem
	if c.quantum > 0 && c.queue.len() > 0 {
		k := max(1, (s.now-qstart+c.quantum-1)/c.quantum)
		slice = min(rem, qstart+k*c.quantum-s.now)
	}
	r := &c.run[core]
	r.p, r.start, r.busyFrom, r.end, r.seq = p, qstart, s.now, s.now+slice, c.dseq
	c.dseq++
	c.stats.Slices++
	p.Wake(slice)
}

// endSlice accounts the slice that just ended. more: rem of the computation is left, to run
// on core from qstart on, or (queued) after a wait in the run queue; !more: done, and p keeps
// the core until it blocks (Proc.Park releases it).
func (c *Cores) endSlice(p *Proc, core int32, qstart, rem Time) (Time, Time, bool, bool) {
	s := c.s
	r := &c.run[core]
	ran := s.now - r.busyFrom
	r.p = nil
	c.stats.BusyNs += ran
	rem -= ran
	if rem <= 0 {
		p.held, p.heldCore, p.heldSlice = c, core, qstart
		return rem, qstart, false, false
	}
	if c.queue.len() == 0 {
		return rem, s.now, true, false // preempted for a waiter that has since got a core elsewhere
	}
	c.handoff(core)
	c.enqueue(p)
	return rem, qstart, true, true
}

// releaseHeld gives back the core p kept after its last Compute (p is about to block).
func (c *Cores) releaseHeld(p *Proc) {
	core := p.heldCore
	p.held = nil
	c.release(core)
}

// enqueue queues p for a core; the first waiter cuts the running slices to their quantum.
func (c *Cores) enqueue(p *Proc) {
	now := c.s.now
	c.queue.push(queued{p, now})
	p.queuedAt = now
	if c.queue.len() == 1 && c.quantum > 0 {
		c.preemptRunning()
	}
}

// granted is p's resumption after a wait in the run queue: the core handed to it.
func (c *Cores) granted(p *Proc) (int32, Time) {
	c.stats.RunQueueWait.Record(c.s.now - p.queuedAt)
	return p.core, c.s.now
}

// preemptRunning cuts every running slice to its next quantum boundary: the first waiter
// has arrived, and round-robin would check the queue there. Slices are moved in the order they
// started, so that threads whose boundaries coincide yield in the order a ticking scheduler
// would have scheduled their ticks.
func (c *Cores) preemptRunning() {
	now, q := c.s.now, c.quantum
	cand := c.scratch[:0]
	for i := range c.run {
		r := &c.run[i]
		if r.p == nil {
			continue
		}
		k := max(1, (now-r.start+q-1)/q)
		if b := r.start + k*q; b < r.end {
			r.end = b
			j := len(cand)
			cand = append(cand, int32(i))
			for ; j > 0 && c.run[cand[j-1]].seq > r.seq; j-- {
				cand[j] = cand[j-1]
			}
			cand[j] = int32(i)
		}
	}
	for _, i := range cand {
		r := &c.run[i]
		c.s.Reschedule(r.p.wake, r.end)
	}
	c.scratch = cand
}

func (c *Cores) release(core int32) {
	if c.queue.len() > 0 {
		c.handoff(core)
		return
	}
	c.free = append(c.free, core)
}

// handoff gives core straight to the head of the run queue, so no later arrival can take it.
func (c *Cores) handoff(core int32) {
	w := c.queue.pop()
	w.p.core = core
	w.p.Wake(0)
}
