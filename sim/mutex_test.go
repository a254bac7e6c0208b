package sim

import (
	"fmt"
	"slices"
	"testing"
)

func TestMutexFIFOAndHandoff(t *testing.T) {
	const hold, handoff = 10 * Microsecond, 3 * Microsecond
	s := New(1)
	defer s.Close()
	m := NewMutex(s, "m", MutexOptions{Handoff: handoff})
	var order []string
	var got []Time
	for i := range 5 {
		s.Spawn(fmt.Sprint("w", i), "fg", func(p *Proc) {
			p.Sleep(Time(i)) // arrive in order 0..4 while w0 holds
			m.Lock(p)
			order = append(order, p.Name())
			got = append(got, p.Now())
			p.Sleep(hold)
			m.Unlock(p)
		})
	}
	s.Run(Forever)
	if !slices.Equal(order, []string{"w0", "w1", "w2", "w3", "w4"}) {
		t.Fatalf("order %v", order)
	}
	// w0 gets it at 0; each successor runs exactly handoff after its predecessor's Unlock.
	for i, at := range got {
		want := Time(i) * (hold + handoff)
		if at != want {
			t.Fatalf("holder %d got the mutex at %v, want %v (all %v)", i, at, want, got)
		}
	}
	st := m.Stats()
	if st.Acquisitions != 5 || st.Contended != 4 || st.Wait.Count() != 5 {
		t.Fatalf("stats %+v", st)
	}
	// w_i waits from i ns until i·(hold+handoff).
	if want := Time(4)*(hold+handoff) - 4; st.Wait.Max() != want {
		t.Fatalf("max wait %v, want %v", st.Wait.Max(), want)
	}
	if h := st.HoldByKind["fg"]; h == nil || h.Count() != 5 || h.Min() != hold || h.Max() != hold {
		t.Fatalf("hold %+v", h)
	}
	if st.WaitByKind["fg"].Count() != 5 || !slices.Equal(st.Kinds(), []string{"fg"}) {
		t.Fatal("wait by kind")
	}
}

// A late arrival must not barge in between Unlock and the hand-off: the mutex already
// belongs to the woken waiter.
func TestMutexNoBargingDuringHandoff(t *testing.T) {
	s := New(1)
	defer s.Close()
	m := NewMutex(s, "m", MutexOptions{Handoff: 100})
	var order []string
	body := lockInOrder(m, &order)
	s.Spawn("first", "fg", body(0, 50))
	s.Spawn("queued", "fg", body(10, 10))
	s.Spawn("barger", "fg", body(60, 10)) // arrives while the hand-off to queued is in flight
	s.Run(Forever)
	if !slices.Equal(order, []string{"first", "queued", "barger"}) {
		t.Fatal(order)
	}
	if h := m.Holder(); h != nil {
		t.Fatal("still held by", h.Name())
	}
}

func TestMutexSpinBurnsCPU(t *testing.T) {
	const spin = 20 * Microsecond
	for _, tc := range []struct {
		name     string
		hold     Time
		wantBusy Time // core time: holder's work + the waiter's spin
		wantAt   Time // when the waiter gets the mutex
		sleeps   bool
	}{
		// released during the spin: the waiter takes it when the spin ends
		{"short hold", 10 * Microsecond, 10*Microsecond + spin, spin, false},
		// still held after the spin: the waiter sleeps and is handed it at Unlock
		{"long hold", 50 * Microsecond, 50*Microsecond + spin, 50 * Microsecond, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s := New(1)
			defer s.Close()
			cores := NewCores(s, 4, Millisecond)
			m := NewMutex(s, "m", MutexOptions{Cores: cores, Spin: spin})
			var at Time
			s.Spawn("holder", "ddl", func(p *Proc) {
				m.Lock(p)
				cores.Compute(p, tc.hold)
				m.Unlock(p)
			})
			s.Spawn("waiter", "fg", func(p *Proc) {
				m.Lock(p)
				at = p.Now()
				m.Unlock(p)
			})
			s.Run(Forever)
			if got := cores.Stats().BusyNs; got != tc.wantBusy {
				t.Errorf("core busy %v, want %v", got, tc.wantBusy)
			}
			if at != tc.wantAt {
				t.Errorf("waiter acquired at %v, want %v", at, tc.wantAt)
			}
			st := m.Stats()
			if st.Contended != 1 || st.WaitByKind["fg"].Max() != tc.wantAt || st.HoldByKind["ddl"].Max() != tc.hold {
				t.Errorf("stats: contended %d, fg wait %v, ddl hold %v", st.Contended, st.WaitByKind["fg"].Max(), st.HoldByKind["ddl"].Max())
			}
		})
	}
}

func TestMutexMisuse(t *testing.T) {
	s := New(1)
	defer s.Close()
	m := NewMutex(s, "m", MutexOptions{})
	var a, b *Proc
	a = s.Spawn("a", "fg", func(p *Proc) {
		m.Lock(p)
		if m.TryLock(b) || m.Holder() != a {
			t.Error("TryLock on a held mutex succeeded")
		}
		p.Park()
	})
	b = s.Spawn("b", "fg", func(p *Proc) {})
	s.Run(Forever)
	mustPanic(t, "unlock by non-holder", func() { m.Unlock(b) })
	mustPanic(t, "unlock by nobody", func() { NewMutex(s, "n", MutexOptions{}).Unlock(a) })
}

func mustPanic(t *testing.T, what string, f func()) {
	t.Helper()
	defer func() {
		if recover() == nil {
			t.Errorf("%s: no panic", what)
		}
	}()
	f()
}

func TestMutexUncontendedDoesNotAllocate(t *testing.T) {
	s := New(1)
	defer s.Close()
	m := NewMutex(s, "m", MutexOptions{})
	var allocs float64
	s.Spawn("x", "fg", func(p *Proc) {
		m.Lock(p)
		m.Unlock(p)
		allocs = testing.AllocsPerRun(100, func() {
			m.Lock(p)
			m.Unlock(p)
		})
	})
	s.Run(Forever)
	if allocs != 0 {
		t.Fatalf("%v allocs per lock/unlock", allocs)
	}
}

// InnoDB's discipline: Unlock wakes every sleeper, and a thread that arrives while they are
// waking takes the free mutex first (barging); the woken ones find it taken and sleep again.
func TestMutexWakeAllBargingAndBroadcast(t *testing.T) {
	const handoff = 100
	s := New(1)
	defer s.Close()
	m := NewMutex(s, "m", MutexOptions{Handoff: handoff, WakeAll: true})
	var order []string
	body := lockInOrder(m, &order)
	s.Spawn("a", "fg", body(0, 1000))   // holds [0, 1000)
	s.Spawn("b", "fg", body(10, 1000))  // sleeps from 10
	s.Spawn("c", "fg", body(20, 1000))  // sleeps from 20
	s.Spawn("d", "fg", body(1050, 500)) // arrives while b and c are waking (1000..1100)
	s.Run(Forever)
	// b and c are both woken at 1000 and resume at 1100; d took the mutex at 1050.
	if !slices.Equal(order[:2], []string{"a", "d"}) {
		t.Fatalf("order %v: d should barge in ahead of the woken sleepers", order)
	}
	st := m.Stats()
	if st.Acquisitions != 4 {
		t.Fatalf("acquisitions %d", st.Acquisitions)
	}
	// Broadcast: when d unlocks at 1550 both b and c wake again; one gets it at 1650.
	if len(order) != 4 || s.Now() != 1650+1000+handoff+1000 {
		t.Fatalf("order %v, end %v", order, s.Now())
	}
}

// Under CPU saturation, a WakeAll mutex is held only for the CPU work inside it when its
// users keep their core between taking it and working (Cores.Compute keeps the core until the
// thread blocks): no critical section includes a wait in the run queue. With the FIFO hand-off
// the mutex passes to a sleeper that must first queue for a core while owning it.
func TestMutexWakeAllHoldExcludesRunQueue(t *testing.T) {
	hold := func(wakeAll bool) Time {
		s := New(1)
		defer s.Close()
		c := NewCores(s, 2, Millisecond)
		m := NewMutex(s, "m", MutexOptions{Cores: c, Spin: Microsecond, Handoff: Microsecond, WakeAll: wakeAll})
		for i := range 16 {
			s.Spawn(fmt.Sprint("t", i), "fg", func(p *Proc) {
				for range 200 {
					c.Compute(p, 200*Microsecond) // work outside
					c.Compute(p, 80)              // the lock-word CAS: on a core when taking it
					m.Lock(p)
					c.Compute(p, 5*Microsecond) // critical section
					m.Unlock(p)
					p.Sleep(50 * Microsecond) // I/O
				}
			})
		}
		s.Run(Forever)
		return m.Stats().HoldByKind["fg"].Quantile(0.99)
	}
	if h := hold(true); h > 10*Microsecond {
		t.Fatalf("WakeAll p99 hold %v, want about the 5us critical section", h)
	}
	if h := hold(false); h < 100*Microsecond {
		t.Fatalf("FIFO hand-off p99 hold %v: expected run-queue waits inside the hold (the test lost its contrast)", h)
	}
}

// ResetStats forgets what happened before (a warm-up) and keeps counting afterwards.
func TestMutexResetStats(t *testing.T) {
	s := New(1)
	defer s.Close()
	m := NewMutex(s, "m", MutexOptions{WakeAll: true})
	s.Spawn("a", "fg", func(p *Proc) {
		m.Lock(p)
		p.Sleep(10)
		m.Unlock(p)
		m.ResetStats()
		m.Lock(p)
		p.Sleep(3)
		m.Unlock(p)
	})
	s.Run(Forever)
	st := m.Stats()
	if h := st.HoldByKind["fg"]; st.Acquisitions != 1 || h.Count() != 1 || h.Sum() != 3 || st.Wait.Count() != 1 {
		t.Fatalf("after reset: acquisitions %d, holds %d (sum %v), waits %d; want 1, 1 (3), 1", st.Acquisitions, h.Count(), h.Sum(), st.Wait.Count())
	}
}

// lockInOrder returns a process body factory: arrive after `arrive`, lock m, record the
// process name in *order, hold for `hold`, unlock.
func lockInOrder(m *Mutex, order *[]string) func(arrive, hold Time) func(p *Proc) {
	return func(arrive, hold Time) func(p *Proc) {
		return func(p *Proc) {
			p.Sleep(arrive)
			m.Lock(p)
			*order = append(*order, p.Name())
			p.Sleep(hold)
			m.Unlock(p)
		}
	}
}

// A spinner looks at the lock word after every round (TTASEventMutex::is_free): a short hold
// costs it the rounds until the release, not the whole spin; a hold longer than the spin still
// sends it to sleep after all of it.
func TestMutexSpinRoundsTakeAFreedMutexEarly(t *testing.T) {
	const spin, rounds = 300 * Microsecond, 30 // 10 µs rounds
	for _, c := range []struct {
		hold, want Time
	}{
		{25 * Microsecond, 30 * Microsecond},              // released in round 3: taken at its end
		{1000 * Microsecond, 1000*Microsecond + retryCPU}, // spun 300 µs, slept, woken at the release
	} {
		s := New(1)
		cores := NewCores(s, 2, Millisecond)
		m := NewMutex(s, "m", MutexOptions{Cores: cores, Spin: spin, SpinRounds: rounds, WakeAll: true})
		var got Time
		s.Spawn("holder", "fg", func(p *Proc) {
			m.Lock(p)
			p.Sleep(c.hold)
			m.Unlock(p)
		})
		s.Spawn("spinner", "fg", func(p *Proc) {
			m.Lock(p)
			got = p.Now()
			m.Unlock(p)
		})
		s.Run(Forever)
		s.Close()
		if got != c.want {
			t.Errorf("hold %v: spinner got the mutex at %v, want %v", c.hold, got, c.want)
		}
	}
}
