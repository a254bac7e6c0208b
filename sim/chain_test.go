package sim

import (
	"fmt"
	"strings"
	"testing"
)

// chainTrace is a contended model whose zero-delay wake-ups are mostly chainable: 12
// threads on 3 time-sliced cores (hand-offs at slice ends and at blocking), a mutex with no
// hand-off latency (Wake(0) on unlock), computations followed by sleeps as kernel
// continuations (SleepAfterCompute), durations in whole 10 µs so that many events share an
// instant (a wake-up that must not be chained past a heap event for Now), and a Stop every 7 ms with Run resumed after it (a
// chained wake-up left pending by Stop). It returns every step's instant, in order.
func chainTrace(seed uint64) (string, uint64) {
	s := New(seed)
	defer s.Close()
	var b strings.Builder
	cores := NewCores(s, 3, 100*Microsecond)
	m := NewMutex(s, "m", MutexOptions{Cores: cores})
	for i := range 12 {
		s.Spawn(fmt.Sprint("t", i), "fg", func(p *Proc) {
			r := s.Stream(p.Name())
			for j := range 60 {
				switch r.IntN(4) {
				case 0:
					p.SleepAfterCompute(cores, Time(r.Int64N(25))*10*Microsecond, Time(r.Int64N(5))*10*Microsecond)
				case 1:
					cores.Compute(p, Time(r.Int64N(30))*10*Microsecond)
					p.Sleep(Time(r.Int64N(2)) * Microsecond)
				case 2:
					m.Lock(p)
					cores.Compute(p, Time(r.Int64N(2))*10*Microsecond)
					m.Unlock(p)
				default:
					p.Sleep(0)
				}
				fmt.Fprintf(&b, "%s.%d@%d ", p.Name(), j, p.Now())
			}
		})
	}
	var stop func()
	stop = func() { s.Stop(); s.After(7*Millisecond, stop) }
	s.After(7*Millisecond, stop)
	for s.Pending() > 1 {
		s.Run(Forever)
		fmt.Fprintf(&b, "| stop@%d ", s.Now())
	}
	cs := cores.Stats()
	fmt.Fprintf(&b, "\nnow=%d busy=%d slices=%d wait=%d", s.Now(), cs.BusyNs, cs.Slices, cs.RunQueueWait.Count())
	return b.String(), s.EventsFired()
}

// TestChainedWakesKeepOrder: chaining a zero-delay wake-up into the running event's end
// must not change what happens or when, only the number of events.
func TestChainedWakesKeepOrder(t *testing.T) {
	defer func() { chainWakes = true }()
	for seed := uint64(1); seed <= 40; seed++ {
		chainWakes = false
		plain, ev0 := chainTrace(seed)
		chainWakes = true
		chained, ev1 := chainTrace(seed)
		if plain != chained {
			i := 0
			for i < len(plain) && i < len(chained) && plain[i] == chained[i] {
				i++
			}
			lo := max(0, i-200)
			t.Fatalf("seed %d: traces differ at byte %d:\nplain   ...%s\nchained ...%s", seed, i,
				plain[lo:min(len(plain), i+100)], chained[lo:min(len(chained), i+100)])
		}
		if !strings.Contains(plain, "t11.59@") {
			t.Fatalf("seed %d: trace incomplete", seed)
		}
		if ev1 >= ev0 {
			t.Fatalf("seed %d: %d events chained, %d plain: nothing was chained", seed, ev1, ev0)
		}
		t.Logf("seed %d: %d events plain, %d chained", seed, ev0, ev1)
	}
}
