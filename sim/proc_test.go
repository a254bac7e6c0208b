package sim

import (
	"errors"
	"fmt"
	"runtime"
	"slices"
	"strings"
	"testing"
	"time"
)

func TestProcSleepInterleaving(t *testing.T) {
	s := New(1)
	defer s.Close()
	var log []string
	for _, c := range []struct {
		name string
		d    Time
	}{{"a", 3}, {"b", 2}} {
		s.Spawn(c.name, "fg", func(p *Proc) {
			for range 3 {
				p.Sleep(c.d)
				log = append(log, fmt.Sprintf("%s@%d", p.Name(), p.Now()))
			}
		})
	}
	s.Run(Forever)
	want := []string{"b@2", "a@3", "b@4", "a@6", "b@6", "a@9"}
	if !slices.Equal(log, want) {
		t.Fatalf("%v\nwant %v", log, want)
	}
}

func TestParkWake(t *testing.T) {
	s := New(1)
	defer s.Close()
	var sleeper *Proc
	var wokeAt Time
	sleeper = s.Spawn("sleeper", "fg", func(p *Proc) {
		p.Park()
		wokeAt = p.Now()
	})
	s.Spawn("waker", "fg", func(p *Proc) {
		p.Sleep(10)
		sleeper.Wake(5)
	})
	s.Run(Forever)
	if wokeAt != 15 || !sleeper.Done() {
		t.Fatalf("woke at %v, done %v", wokeAt, sleeper.Done())
	}
}

func TestDoubleWakePanics(t *testing.T) {
	s := New(1)
	defer s.Close()
	p := s.Spawn("x", "fg", func(p *Proc) { p.Park() })
	s.Run(0)
	p.Wake(1)
	defer func() {
		if recover() == nil {
			t.Fatal("second Wake did not panic")
		}
	}()
	p.Wake(2)
}

func TestProcPanicPropagatesWithName(t *testing.T) {
	s := New(1)
	defer s.Close()
	s.Spawn("calm", "fg", func(p *Proc) { p.Sleep(Second) })
	s.Spawn("bad-thread", "ddl", func(p *Proc) {
		p.Sleep(5)
		panic(errors.New("boom"))
	})
	done := make(chan any, 1)
	go func() {
		defer func() { done <- recover() }()
		s.Run(Forever)
	}()
	var r any
	select {
	case r = <-done:
	case <-time.After(10 * time.Second): // a deadlock guard for the test, not simulated time
		t.Fatal("Run deadlocked after a proc panic")
	}
	pp, ok := r.(*ProcPanic)
	if !ok {
		t.Fatalf("recovered %T %v", r, r)
	}
	if pp.Proc != "bad-thread" || !strings.Contains(pp.Error(), "boom") || !strings.Contains(string(pp.Stack), "proc_test.go") {
		t.Fatalf("panic lost its origin: %v", pp)
	}
	if !errors.Is(pp, pp.Unwrap()) || pp.Unwrap().Error() != "boom" {
		t.Fatal("Unwrap")
	}
	if s.Now() != 5 {
		t.Fatalf("now %v", s.Now())
	}
}

func TestParkOutsideBodyPanics(t *testing.T) {
	s := New(1)
	defer s.Close()
	p := s.Spawn("x", "fg", func(p *Proc) { p.Park() })
	s.Run(0)
	defer func() {
		if recover() == nil {
			t.Fatal("no panic")
		}
	}()
	p.Park()
}

func TestCloseReleasesGoroutines(t *testing.T) {
	before := runtime.NumGoroutine()
	s := New(1)
	deferred := 0
	m := NewMutex(s, "m", MutexOptions{})
	for i := range 100 {
		s.Spawn(fmt.Sprint("p", i), "fg", func(p *Proc) {
			defer func() { deferred++ }()
			m.Lock(p)
			p.Sleep(Second)
			m.Unlock(p)
		})
	}
	s.Run(Millisecond)
	s.Spawn("never-started", "fg", func(p *Proc) { t.Error("ran") })
	s.Close()
	if deferred != 100 {
		t.Fatalf("%d bodies unwound", deferred)
	}
	for range 100 {
		if runtime.NumGoroutine() <= before {
			return
		}
		runtime.Gosched()
		time.Sleep(time.Millisecond)
	}
	t.Fatalf("goroutines: %d before, %d after Close", before, runtime.NumGoroutine())
}

func TestProcResumeDoesNotAllocate(t *testing.T) {
	s := New(1)
	defer s.Close()
	s.Spawn("loop", "fg", func(p *Proc) {
		for {
			p.Sleep(1)
		}
	})
	s.Run(100)
	allocs := testing.AllocsPerRun(10, func() { s.Run(s.Now() + 1000) })
	if allocs != 0 {
		t.Fatalf("%v allocations per 1000 sleeps", allocs)
	}
}

// Close must survive bodies whose deferred code unlocks, wakes or sleeps.
func TestCloseWithDeferredKernelCalls(t *testing.T) {
	s := New(1)
	m := NewMutex(s, "m", MutexOptions{Handoff: 5})
	for i := range 4 {
		s.Spawn(fmt.Sprint("p", i), "fg", func(p *Proc) {
			m.Lock(p)
			defer m.Unlock(p)
			defer p.Sleep(1)
			p.Sleep(Second)
		})
	}
	s.Run(Millisecond)
	s.Close()
}
