package sim

import (
	"fmt"
	"iter"
	"runtime/debug"
)

// Proc is a simulated thread: body runs as a coroutine that blocks only through the kernel.
type Proc struct {
	s      *Sim
	name   string
	kind   string
	kindID int32 // dense index of kind, so resources keep per-kind stats in slices
	idx    int   // position in s.procs while live

	next  func() (struct{}, bool)
	stop  func()
	yield func(struct{}) bool
	// resume is bound once at Spawn so that waking a process schedules no new closure.
	resume func()

	wake      EventID // pending resumption, valid while scheduled
	scheduled bool
	done      bool

	core int32 // the core handed to this process while it waited in a run queue

	// held is set while p keeps the core it computed on (Cores.Compute returned, p has not
	// blocked since): a thread keeps its CPU until it blocks, so back-to-back computations
	// with non-blocking steps between them (an uncontended mutex, a critical section) run on
	// the same core without queueing again. Park releases it.
	held      *Cores
	heldCore  int32
	heldSlice Time // start of the held core's current quantum
	queuedAt  Time // when p joined a run queue

	k kont // a ComputeThenPark in progress

	// sleepFor is SleepAfterCompute's duration, read by sleepThen (bound once at Spawn).
	sleepFor  Time
	sleepThen func()
	// computed, when set, runs once when a SleepAfterComputeThen's CPU is done, before the
	// sleep starts (no event of its own).
	computed func()
}

// kont is the state of a ComputeThenPark that runs as kernel continuations.
type kont struct {
	state  uint8 // kNone, kWaitCore, kSlice
	core   int32
	qstart Time
	rem    Time
	c      *Cores
	then   func()
}

const (
	kNone     = iota
	kWaitCore // in the run queue: the next wake-up is the hand-off of a core
	kSlice    // on a core: the next wake-up is the slice's end
)

// ProcPanic is what Run panics with when a process body panics: the value, which process,
// and the stack of the body at the panic (the re-panic in Run has lost it).
type ProcPanic struct {
	Proc  string
	Kind  string
	Value any
	Stack []byte
}

func (e *ProcPanic) Error() string {
	return fmt.Sprintf("sim: proc %q (%s) panicked: %v\n%s", e.Proc, e.Kind, e.Value, e.Stack)
}

func (e *ProcPanic) Unwrap() error {
	err, _ := e.Value.(error)
	return err
}

// errStopped unwinds a parked body when Close stops it.
type stopSignal struct{}

// Spawn starts body at Now (as an event). kind groups processes in statistics ("fg", "ddl",
// "cleaner", ...).
func (s *Sim) Spawn(name, kind string, body func(p *Proc)) *Proc {
	if s.closed {
		panic("sim: Spawn after Close")
	}
	id, ok := s.kinds[kind]
	if !ok {
		id = int32(len(s.kinds))
		s.kinds[kind] = id
	}
	p := &Proc{s: s, name: name, kind: kind, kindID: id, idx: len(s.procs)}
	p.resume = func() { s.resumeScheduled(p) }
	p.sleepThen = func() {
		if f := p.computed; f != nil {
			p.computed = nil
			f()
		}
		p.Wake(p.sleepFor)
	}
	p.next, p.stop = iter.Pull(func(yield func(struct{}) bool) {
		p.yield = yield
		defer p.finish()
		body(p)
	})
	s.procs = append(s.procs, p)
	p.wake = s.At(s.now, p.resume)
	p.scheduled = true
	return p
}

// finish runs on the coroutine when the body returns, panics or is stopped.
func (p *Proc) finish() {
	p.done = true
	s := p.s
	if p.held != nil && !s.closed {
		p.held.releaseHeld(p)
	}
	if !s.closed {
		last := s.procs[len(s.procs)-1]
		s.procs[p.idx] = last
		last.idx = p.idx
		s.procs = s.procs[:len(s.procs)-1]
	}
	r := recover()
	switch r.(type) {
	case nil, stopSignal:
		return
	case *ProcPanic: // a nested kernel re-panicked already
		panic(r)
	}
	panic(&ProcPanic{Proc: p.name, Kind: p.kind, Value: r, Stack: debug.Stack()})
}

func (s *Sim) resumeScheduled(p *Proc) {
	p.scheduled = false
	if p.k.state != kNone {
		p.k.c.kstep(p)
		return
	}
	s.resumeNow(p)
}

// resumeNow runs p until it parks again. Only plain events may call it: one coroutine at a time.
func (s *Sim) resumeNow(p *Proc) {
	if s.cur != nil {
		panic("sim: resuming " + p.name + " from inside proc " + s.cur.name)
	}
	s.cur = p
	s.resumes++
	p.next()
	s.cur = nil
}

func (p *Proc) Sim() *Sim      { return p.s }
func (p *Proc) Now() Time      { return p.s.now }
func (p *Proc) Name() string   { return p.name }
func (p *Proc) Kind() string   { return p.kind }
func (p *Proc) Done() bool     { return p.done }
func (p *Proc) String() string { return p.name }

// Sleep blocks p for d of virtual time without using a core. Sleep(0) lets every event
// already scheduled for Now run first.
func (p *Proc) Sleep(d Time) {
	if d < 0 {
		panic(fmt.Sprintf("sim: %s: Sleep(%v)", p.name, d))
	}
	p.Wake(d)
	p.Park()
}

// SleepAfterCompute is c.Compute(p, cpu) then p.Sleep(d), with p's coroutine resumed only
// once, at the end of the sleep (Cores.ComputeThenPark).
func (p *Proc) SleepAfterCompute(c *Cores, cpu, d Time) {
	if d < 0 {
		panic(fmt.Sprintf("sim: %s: Sleep(%v)", p.name, d))
	}
	p.sleepFor = d
	c.ComputeThenPark(p, cpu, p.sleepThen)
}

// SleepAfterComputeThen is SleepAfterCompute with done called at the instant the CPU work
// ends and the sleep begins: the same events as SleepAfterCompute.
func (p *Proc) SleepAfterComputeThen(c *Cores, cpu, d Time, done func()) {
	p.computed = done
	p.SleepAfterCompute(c, cpu, d)
}

// Park blocks p until some other code calls Wake(p). Building block for resources.
func (p *Proc) Park() {
	if p.s.closed { // deferred code of a body being unwound by Close must not block again
		panic(stopSignal{})
	}
	if p.s.cur != p {
		panic("sim: " + p.name + ".Park called from outside its own body")
	}
	if p.held != nil {
		p.held.releaseHeld(p)
	}
	if !p.yield(struct{}{}) {
		panic(stopSignal{})
	}
}

// Wake makes a parked p runnable at Now (via an event, so wake order is deterministic).
// after>0 delays the resumption (e.g. a futex hand-off latency). A process has at most one
// pending wake; a second Wake before it runs is a programmer error and panics.
func (p *Proc) Wake(after Time) {
	if p.s.closed {
		return // Close is unwinding bodies; nothing will run again
	}
	if p.done {
		panic("sim: Wake of finished proc " + p.name)
	}
	if p.scheduled {
		panic("sim: Wake of proc " + p.name + " that already has a pending wake")
	}
	p.scheduled = true
	if after == 0 && chainWakes && p.s.chainable() {
		p.s.chained = p // runs right after the current event, as its event would have
		p.wake = EventID{}
		return
	}
	p.wake = p.s.At(p.s.now+after, p.resume)
}

// chainWakes enables chained wake-ups (Sim.chainable); a variable so a test can compare
// against the plain events.
var chainWakes = true

// Close ends every process still parked (their bodies never resume; deferred calls in them
// run) and releases their goroutines. The Sim cannot Run afterwards.
func (s *Sim) Close() {
	if s.closed {
		return
	}
	if s.running {
		panic("sim: Close called from inside Run")
	}
	s.closed = true
	s.chained = nil
	procs := s.procs
	s.procs = nil
	for _, p := range procs {
		if !p.done {
			p.stop()
			p.done = true // a body that never started has no finish to say so
		}
	}
}
