package sim

import (
	"fmt"
	"math/bits"
	"slices"
)

// EventID names a scheduled event so it can be cancelled or rescheduled. The zero value is
// never a live event: generations start at 1, so a stale or zero ID is always detected.
type EventID struct {
	slot int32
	gen  uint32
}

// String prints the ID for traces, e.g. "ev12.3" (slot 12, generation 3).
func (id EventID) String() string { return fmt.Sprintf("ev%d.%d", id.slot, id.gen) }

// An entry is one pending event in the heap. key packs the sequence number (high bits) above
// the slot (low bits) so an entry is 16 bytes and the four children of a node share one
// 64-byte cache line; comparing keys compares sequence numbers because those are unique.
type entry struct {
	at  Time
	key uint64
}

const (
	slotBits = 24
	slotMask = 1<<slotBits - 1
	// maxSlots bounds the pending set. The design keeps pending events proportional to
	// active actors (threads, I/Os, timers), so 16 M is far beyond any sane model.
	maxSlots = 1 << slotBits
	// heapPad puts the root at index 3 so that the children of every node, 4(i-2)..4(i-2)+3,
	// start at a multiple of four entries.
	heapPad = 3
)

// seqLimit is when sequence numbers are renumbered (40 bits ≈ 10^12 events). A variable so
// tests can force the renumbering path.
var seqLimit uint64 = 1 << (64 - slotBits)

// slot is an event's stable home while it moves inside the heap.
type slot struct {
	fn  func()
	pos int32 // index in Sim.heap, posNow while in the now queue, or -1 when free
	gen uint32
	// nowSeq is the sequence number of the slot's entry in the now queue (pos == posNow):
	// an entry whose number differs was left behind by a Reschedule and is skipped.
	nowSeq uint64
}

// posNow marks a slot whose event is in the now queue.
const posNow = -2

// nowEntry is an event scheduled for the current instant. Such events go to a FIFO instead
// of the heap: every event already in the heap for this instant was scheduled before it
// began (with a smaller sequence number), and the now queue is in sequence order, so running
// the heap's events for Now first and then the queue's is the (time, sequence) order, without
// a sift up and down per zero-delay wake-up (a core's hand-off, a Wake(0)).
type nowEntry struct {
	slot int32
	seq  uint64
}

// Sim owns the clock, the event queue and the processes.
//
//	s := sim.New(seed)
//	defer s.Close()
//	s.Spawn("worker", "fg", func(p *sim.Proc) { p.Sleep(sim.Millisecond) })
//	s.Run(10 * sim.Second)
type Sim struct {
	now     Time
	seed    uint64
	seq     uint64
	fired   uint64
	resumes uint64 // coroutine resumes (performance reporting)

	heap  []entry // heap[heapPad:] is a 4-ary min-heap on (at, key)
	slots []slot
	free  []int32
	// now queue: events at Now scheduled during this instant, in sequence order (nowEntry).
	nowQ    []nowEntry
	nowHead int
	nowLive int // entries of nowQ[nowHead:] still pending

	running, stopped, closed bool
	// hole is set while an event runs: its entry still sits at the root, dead, so that the
	// first event the handler schedules (a process's next wake, usually) replaces the root
	// with one sift-down instead of a pop plus a push.
	hole bool

	// chained is a process woken with Wake(0) whose wake-up event would have been the very
	// next to fire (no event for Now in the heap or the now queue when it woke): Run resumes
	// it right after the current event, in the same order, without scheduling an event
	// (chainable, runChained). Most are a core's hand-off and a mutex's.
	chained *Proc

	cur     *Proc   // the coroutine running now, nil in plain events
	procs   []*Proc // live processes, for Close
	kinds   map[string]int32
	streams map[string]stream
}

// New returns a kernel whose random streams all derive from seed.
func New(seed uint64) *Sim {
	return &Sim{
		seed:    seed,
		heap:    make([]entry, heapPad, 64),
		kinds:   map[string]int32{},
		streams: map[string]stream{},
	}
}

func (s *Sim) Now() Time    { return s.now }
func (s *Sim) Seed() uint64 { return s.seed }

// Pending is the number of scheduled events that have neither fired nor been cancelled.
func (s *Sim) Pending() int {
	n := len(s.heap) - heapPad + s.nowLive
	if s.chained != nil {
		n++
	}
	if s.hole {
		n--
	}
	return n
}
func (s *Sim) EventsFired() uint64 { return s.fired }

// Resumes is the number of times a process's coroutine was resumed (each is two coroutine
// switches); events that run kernel continuations do not resume one.
func (s *Sim) Resumes() uint64 { return s.resumes }

// Current returns the process whose code is running, or nil inside a plain event.
func (s *Sim) Current() *Proc { return s.cur }

// At schedules fn at absolute time t (t < Now panics). Same-time events run in scheduling order.
func (s *Sim) At(t Time, fn func()) EventID {
	if t < s.now {
		panic(fmt.Sprintf("sim: At(%v) is before Now (%v)", t, s.now))
	}
	if fn == nil {
		panic("sim: At with nil func")
	}
	seq := s.nextSeq() // before taking a slot: renumbering rewrites positions
	var i int32
	if n := len(s.free); n > 0 {
		i = s.free[n-1]
		s.free = s.free[:n-1]
	} else {
		if len(s.slots) >= maxSlots {
			panic("sim: more than 16M pending events; the model schedules per page, not per actor")
		}
		i = int32(len(s.slots))
		s.slots = append(s.slots, slot{gen: 1})
	}
	sl := &s.slots[i]
	sl.fn = fn
	if t == s.now {
		s.pushNow(i, seq)
		return EventID{slot: i, gen: sl.gen}
	}
	e := entry{at: t, key: seq<<slotBits | uint64(i)}
	if s.hole {
		s.hole = false
		s.heap[heapPad] = e
		s.down(heapPad)
	} else {
		n := len(s.heap)
		s.heap = append(s.heap, e)
		s.up(n)
	}
	return EventID{slot: i, gen: sl.gen}
}

// pushNow appends slot i (sequence number seq) to the now queue.
func (s *Sim) pushNow(i int32, seq uint64) {
	sl := &s.slots[i]
	sl.pos, sl.nowSeq = posNow, seq
	if s.nowHead > 0 && s.nowHead == len(s.nowQ) {
		s.nowQ, s.nowHead = s.nowQ[:0], 0
	}
	s.nowQ = append(s.nowQ, nowEntry{i, seq})
	s.nowLive++
}

// popNow returns the next live event of the now queue, or -1.
func (s *Sim) popNow() int32 {
	for s.nowHead < len(s.nowQ) {
		e := s.nowQ[s.nowHead]
		s.nowHead++
		if sl := &s.slots[e.slot]; sl.pos == posNow && sl.nowSeq == e.seq {
			s.nowLive--
			return e.slot
		}
	}
	s.nowQ, s.nowHead = s.nowQ[:0], 0
	return -1
}

// After schedules fn d from now (d < 0 panics).
func (s *Sim) After(d Time, fn func()) EventID { return s.At(s.now+d, fn) }

func (s *Sim) nextSeq() uint64 {
	if s.seq >= seqLimit {
		s.renumber()
	}
	q := s.seq
	s.seq++
	return q
}

// renumber compacts sequence numbers once they near the bit budget. Pending events keep their
// relative order, and a sorted array is a valid heap, so positions are just rewritten.
func (s *Sim) renumber() {
	s.fillHole()
	h := s.heap[heapPad:]
	slices.SortFunc(h, func(a, b entry) int {
		if less(a, b) {
			return -1
		}
		return 1
	})
	for j := range h {
		sl := h[j].key & slotMask
		h[j].key = uint64(j)<<slotBits | sl
		s.slots[sl].pos = int32(j + heapPad)
	}
	// The now queue's live entries follow, in their order (entries left behind are dropped).
	q := s.nowQ[:0]
	n := uint64(len(h))
	for _, e := range s.nowQ[s.nowHead:] {
		if sl := &s.slots[e.slot]; sl.pos == posNow && sl.nowSeq == e.seq {
			sl.nowSeq = n
			q = append(q, nowEntry{e.slot, n})
			n++
		}
	}
	s.nowQ, s.nowHead = q, 0
	s.seq = n
}

// lookup returns the slot of a live event, or nil for a stale or zero ID.
func (s *Sim) lookup(id EventID) *slot {
	if id.slot < 0 || int(id.slot) >= len(s.slots) {
		return nil
	}
	sl := &s.slots[id.slot]
	if sl.gen != id.gen || (sl.pos < 0 && sl.pos != posNow) || sl.fn == nil {
		return nil
	}
	return sl
}

// Cancel removes a pending event; false if it already fired or was cancelled.
func (s *Sim) Cancel(id EventID) bool {
	sl := s.lookup(id)
	if sl == nil {
		return false
	}
	if sl.pos == posNow {
		s.nowLive-- // its entry is skipped: release frees the slot
	} else {
		s.remove(int(sl.pos))
	}
	s.release(id.slot)
	return true
}

// Reschedule moves a pending event to t (t < Now panics), keeping its ID. It runs after any
// event already scheduled for t, as if scheduled now. False if the event is not pending.
func (s *Sim) Reschedule(id EventID, t Time) bool {
	sl := s.lookup(id)
	if sl == nil {
		return false
	}
	if t < s.now {
		panic(fmt.Sprintf("sim: Reschedule(%v) is before Now (%v)", t, s.now))
	}
	q := s.nextSeq()
	sl = &s.slots[id.slot]
	if sl.pos == posNow {
		// Out of the now queue (its entry is left behind, skipped): into the heap, or to
		// the queue's tail with the new sequence number.
		s.nowLive--
		if t == s.now {
			s.pushNow(id.slot, q)
			return true
		}
		s.pushHeap(entry{at: t, key: q<<slotBits | uint64(id.slot)})
		return true
	}
	if t == s.now {
		s.remove(int(sl.pos))
		s.pushNow(id.slot, q)
		return true
	}
	k := q<<slotBits | uint64(id.slot)
	i := int(sl.pos) // renumbering may have moved it
	s.heap[i] = entry{at: t, key: k}
	if !s.up(i) {
		s.down(i)
	}
	return true
}

// pushHeap adds e to the heap (into the running event's hole when there is one).
func (s *Sim) pushHeap(e entry) {
	if s.hole {
		s.hole = false
		s.heap[heapPad] = e
		s.down(heapPad)
		return
	}
	n := len(s.heap)
	s.heap = append(s.heap, e)
	s.up(n)
}

// EventTime returns when a pending event will fire.
func (s *Sim) EventTime(id EventID) (Time, bool) {
	sl := s.lookup(id)
	if sl == nil {
		return 0, false
	}
	if sl.pos == posNow {
		return s.now, true
	}
	return s.heap[sl.pos].at, true
}

// fillHole removes the dead root left by the running event.
func (s *Sim) fillHole() {
	if s.hole {
		s.hole = false
		s.popTop()
	}
}

func (s *Sim) release(i int32) {
	sl := &s.slots[i]
	sl.fn = nil
	sl.pos = -1
	sl.gen++
	if sl.gen == 0 {
		sl.gen = 1
	}
	s.free = append(s.free, i)
}

// Run fires events in (time, sequence) order until the queue is empty, Stop is called, or the
// next event is after until; then Now() == until (unless stopped earlier, or until is
// Forever, which leaves Now at the last event). A panic in an event or process propagates.
func (s *Sim) Run(until Time) {
	if s.running {
		panic("sim: Run called from inside Run")
	}
	if s.closed {
		panic("sim: Run after Close")
	}
	s.running, s.stopped = true, false
	defer func() {
		s.running = false
		s.fillHole() // when an event panicked
		s.unchain()
	}()
	for {
		if len(s.heap) > heapPad && s.heap[heapPad].at == s.now || s.nowLive == 0 {
			// The heap's events for this instant come before the now queue's.
			if len(s.heap) <= heapPad {
				break
			}
			e := s.heap[heapPad]
			if e.at > until {
				break
			}
			i := int32(e.key & slotMask)
			fn := s.slots[i].fn
			s.release(i)
			s.hole = true
			s.now = e.at
			s.fired++
			fn()
			if s.hole {
				s.hole = false
				s.popTop()
			}
		} else {
			if s.now > until {
				break
			}
			i := s.popNow()
			fn := s.slots[i].fn
			s.release(i)
			s.fired++
			fn()
		}
		if s.stopped {
			return // a chained wake-up stays pending (unchain)
		}
		for s.chained != nil {
			p := s.chained
			s.chained = nil
			s.resumeScheduled(p)
			if s.stopped {
				return
			}
		}
	}
	if until != Forever && until > s.now {
		s.now = until
	}
}

// chainable reports whether an event scheduled now for Now would be the next to fire after
// the running one: Run is firing an event, nothing is chained yet, the now queue is empty and
// the heap holds no other event for Now (the running event's dead root aside, the least
// entry is among the root's children). Everything the running event schedules after this
// point has a later sequence number, so the chained wake-up keeps its place.
func (s *Sim) chainable() bool {
	if !s.running || s.chained != nil || s.nowLive > 0 || s.closed {
		return false
	}
	h := s.heap
	if !s.hole {
		return len(h) <= heapPad || h[heapPad].at != s.now
	}
	for j := heapPad + 1; j < min(heapPad+5, len(h)); j++ {
		if h[j].at == s.now {
			return false
		}
	}
	return true
}

// unchain turns a chained wake-up that Run did not reach (Stop, a panic) into the event it
// stands for, at the head of the now queue: every live entry there was scheduled after it,
// and the heap holds nothing for Now that precedes it.
func (s *Sim) unchain() {
	p := s.chained
	if p == nil {
		return
	}
	s.chained = nil
	seq := s.nextSeq()
	var i int32
	if n := len(s.free); n > 0 {
		i = s.free[n-1]
		s.free = s.free[:n-1]
	} else {
		i = int32(len(s.slots))
		s.slots = append(s.slots, slot{gen: 1})
	}
	sl := &s.slots[i]
	sl.fn, sl.pos, sl.nowSeq = p.resume, posNow, seq
	e := nowEntry{i, seq}
	if s.nowHead > 0 {
		s.nowHead--
		s.nowQ[s.nowHead] = e
	} else {
		s.nowQ = append(s.nowQ, nowEntry{})
		copy(s.nowQ[1:], s.nowQ)
		s.nowQ[0] = e
	}
	s.nowLive++
	p.wake = EventID{slot: i, gen: sl.gen}
}

// Stop makes Run return after the event that is running now.
func (s *Sim) Stop() { s.stopped = true }

func less(a, b entry) bool {
	return a.at < b.at || (a.at == b.at && a.key < b.key)
}

// up moves heap[i] towards the root; it reports whether it moved.
func (s *Sim) up(i int) bool {
	h := s.heap
	e := h[i]
	start := i
	for i > heapPad {
		p := (i-heapPad-1)>>2 + heapPad
		if !less(e, h[p]) {
			break
		}
		h[i] = h[p]
		s.slots[h[i].key&slotMask].pos = int32(i)
		i = p
	}
	h[i] = e
	s.slots[e.key&slotMask].pos = int32(i)
	return i != start
}

// down moves heap[i] towards the leaves.
func (s *Sim) down(i int) {
	h := s.heap
	n := len(h)
	e := h[i]
	small := n <= branchlessMax
	for {
		c := (i-heapPad)<<2 + 1 + heapPad
		var m int
		if small && c+3 < n {
			// Least of four children as a tournament on borrow bits: which child wins is a
			// coin toss, so branches would mispredict half the time.
			a := c + int(lessBit(h[c+1], h[c]))
			b := c + 2 + int(lessBit(h[c+3], h[c+2]))
			m = a + (b-a)*int(lessBit(h[b], h[a]))
		} else if c < n {
			m = c
			for j := c + 1; j < min(c+4, n); j++ {
				if less(h[j], h[m]) {
					m = j
				}
			}
		} else {
			break
		}
		me := h[m]
		if !less(me, e) {
			break
		}
		h[i] = me
		s.slots[me.key&slotMask].pos = int32(i)
		i = m
	}
	h[i] = e
	s.slots[e.key&slotMask].pos = int32(i)
}

// branchlessMax is the heap size up to which down picks children without branches; past it
// the heap misses cache and branch prediction lets the CPU fetch the next level early. A
// variable so tests can cover both paths.
var branchlessMax = 1 << 16

// lessBit is less as 0 or 1: (at, key) compared as one 128-bit unsigned number (at is never
// negative), without a branch.
func lessBit(a, b entry) uint64 {
	_, borrow := bits.Sub64(a.key, b.key, 0)
	_, borrow = bits.Sub64(uint64(a.at), uint64(b.at), borrow)
	return borrow
}

func (s *Sim) popTop() {
	last := len(s.heap) - 1
	if last > heapPad {
		s.heap[heapPad] = s.heap[last]
		s.heap = s.heap[:last]
		s.down(heapPad)
	} else {
		s.heap = s.heap[:last]
	}
}

func (s *Sim) remove(i int) {
	last := len(s.heap) - 1
	if i != last {
		s.heap[i] = s.heap[last]
		s.heap = s.heap[:last]
		if !s.up(i) {
			s.down(i)
		}
	} else {
		s.heap = s.heap[:last]
	}
}
