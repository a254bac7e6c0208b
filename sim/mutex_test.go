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
	body := func(arrive, hold Time) func(p *Proc) {
		return func(p *Proc) {
			p.Sleep(arrive)
			m.Lock(p)
			order = append(order, p.Name())
			p.Sleep(hold)
			m.Unlock(p)
		}
	}
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
