package sim

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"
)

func TestSameTimeEventsRunInSchedulingOrder(t *testing.T) {
	s := New(1)
	var got []int
	for i := range 100 {
		at := Time(i % 3) // interleave three instants
		s.At(at, func() { got = append(got, i) })
	}
	s.Run(Forever)
	var want []int
	for k := range 3 {
		for i := k; i < 100; i += 3 {
			want = append(want, i)
		}
	}
	if !slices.Equal(got, want) {
		t.Fatalf("order %v\nwant  %v", got, want)
	}
}

func TestEventScheduledDuringRunAtNowRunsAfterPendingSameTime(t *testing.T) {
	s := New(1)
	var got []string
	s.At(5, func() {
		got = append(got, "a")
		s.At(5, func() { got = append(got, "c") })
	})
	s.At(5, func() { got = append(got, "b") })
	s.Run(Forever)
	if !slices.Equal(got, []string{"a", "b", "c"}) {
		t.Fatal(got)
	}
}

func TestRunUntilAndStop(t *testing.T) {
	s := New(1)
	n := 0
	for i := 1; i <= 10; i++ {
		s.At(Time(i)*Second, func() { n++ })
	}
	s.Run(5 * Second)
	if n != 5 || s.Now() != 5*Second || s.Pending() != 5 {
		t.Fatalf("n=%d now=%v pending=%d", n, s.Now(), s.Pending())
	}
	s.Run(5*Second + 500*Millisecond)
	if n != 5 || s.Now() != 5*Second+500*Millisecond {
		t.Fatalf("idle run: n=%d now=%v", n, s.Now())
	}
	s.At(7*Second, func() { s.Stop() })
	s.Run(Forever)
	if n != 7 || s.Now() != 7*Second {
		t.Fatalf("stop: n=%d now=%v", n, s.Now())
	}
	s.Run(Forever)
	if n != 10 || s.Now() != 10*Second || s.EventsFired() != 11 {
		t.Fatalf("drain: n=%d now=%v fired=%d", n, s.Now(), s.EventsFired())
	}
}

func TestAtInPastPanics(t *testing.T) {
	s := New(1)
	s.Run(10)
	defer func() {
		if recover() == nil {
			t.Fatal("no panic")
		}
	}()
	s.At(9, func() {})
}

func TestCancelAndStaleIDs(t *testing.T) {
	s := New(1)
	fired := false
	id := s.At(10, func() { fired = true })
	if s.Cancel(EventID{}) || s.Reschedule(EventID{}, 3) {
		t.Fatal("zero ID treated as live")
	}
	if at, ok := s.EventTime(id); !ok || at != 10 {
		t.Fatal(at, ok)
	}
	if !s.Cancel(id) || s.Cancel(id) {
		t.Fatal("cancel twice")
	}
	// The slot is reused by the next event; the old ID must not reach it.
	id2 := s.At(20, func() {})
	if id2.slot != id.slot || s.Cancel(id) || s.Reschedule(id, 30) {
		t.Fatal("stale ID reached a reused slot")
	}
	s.Run(Forever)
	if fired || s.Cancel(id2) {
		t.Fatal("cancelled event fired or fired event cancellable")
	}
}

func TestRescheduleTakesFreshSequence(t *testing.T) {
	s := New(1)
	var got []string
	a := s.At(5, func() { got = append(got, "a") })
	s.At(7, func() { got = append(got, "b") })
	s.Reschedule(a, 7) // now after b, as if scheduled now
	s.Run(Forever)
	if !slices.Equal(got, []string{"b", "a"}) {
		t.Fatal(got)
	}
}

// oracle is the naive event queue: a slice kept sorted by (time, seq).
type oracleEv struct {
	at  Time
	seq int
	tag int
}

// TestQueueAgainstOracle drives the heap and a sorted slice with the same random schedule,
// cancel, reschedule and run operations, from outside Run and from inside firing events, and
// checks every event fires at the oracle's time and in the oracle's order.
func TestQueueAgainstOracle(t *testing.T) {
	for seed := range uint64(20) {
		queueVsOracle(t, seed, 3000, 8)
	}
	queueVsOracle(t, 99, 20_000, 50) // a deep heap: mostly schedules
}

func TestQueueRenumberingKeepsOrder(t *testing.T) {
	old := seqLimit
	seqLimit = 50
	defer func() { seqLimit = old }()
	for seed := range uint64(5) {
		queueVsOracle(t, seed, 2000, 8)
	}
}

func TestQueueBranchyPathAgainstOracle(t *testing.T) {
	old := branchlessMax
	branchlessMax = 0
	defer func() { branchlessMax = old }()
	for seed := range uint64(5) {
		queueVsOracle(t, seed, 3000, 8)
	}
}

func queueVsOracle(t *testing.T, seed uint64, steps, runEvery int) {
	t.Helper()
	r := rand.New(rand.NewPCG(seed, 99))
	s := New(seed)
	var oracle []oracleEv
	var ids []EventID // by tag
	var live []int    // tags, in creation order (not a map: deterministic picks)
	seq := 0
	insert := func(e oracleEv) {
		i, _ := slices.BinarySearchFunc(oracle, e, func(a, b oracleEv) int {
			if a.at != b.at {
				return int(a.at - b.at)
			}
			return a.seq - b.seq
		})
		oracle = slices.Insert(oracle, i, e)
	}
	drop := func(tg int) {
		live = slices.DeleteFunc(live, func(x int) bool { return x == tg })
		oracle = slices.DeleteFunc(oracle, func(e oracleEv) bool { return e.tag == tg })
	}
	horizon := Time(20) // many equal times
	if runEvery >= 50 {
		horizon = 1 << 20
	}
	var op func(inEvent bool)
	fire := func(tg int) func() {
		return func() {
			if len(oracle) == 0 || oracle[0].tag != tg || oracle[0].at != s.Now() {
				t.Fatalf("seed %d: fired %d at %v, oracle expects %v", seed, tg, s.Now(), oracle[:min(1, len(oracle))])
			}
			drop(tg)
			for r.IntN(2) == 0 {
				op(true)
			}
		}
	}
	op = func(inEvent bool) {
		switch k := r.IntN(10); {
		case k < 5 || len(live) == 0: // schedule, often at equal times
			tg := len(ids)
			at := s.Now() + Time(r.Int64N(int64(horizon)))
			if r.IntN(4) == 0 {
				at = s.Now() // the now queue, behind the heap's events for Now
			}
			ids = append(ids, s.At(at, fire(tg)))
			insert(oracleEv{at, seq, tg})
			seq++
			live = append(live, tg)
		case k < 6: // cancel
			tg := live[r.IntN(len(live))]
			if !s.Cancel(ids[tg]) || s.Cancel(ids[tg]) {
				t.Fatalf("seed %d: cancel of live %d", seed, tg)
			}
			drop(tg)
		case k < 7: // reschedule, earlier or later
			tg := live[r.IntN(len(live))]
			at := s.Now() + Time(r.Int64N(int64(horizon)))
			if r.IntN(4) == 0 {
				at = s.Now() // into (or within) the now queue
			}
			if !s.Reschedule(ids[tg], at) {
				t.Fatalf("seed %d: reschedule of live %d failed", seed, tg)
			}
			if got, ok := s.EventTime(ids[tg]); !ok || got != at {
				t.Fatalf("seed %d: EventTime %v %v", seed, got, ok)
			}
			drop(tg)
			insert(oracleEv{at, seq, tg})
			seq++
			live = append(live, tg)
		}
		if s.Pending() != len(oracle) {
			t.Fatalf("seed %d: pending %d, oracle %d (in event %v, hole %v)", seed, s.Pending(), len(oracle), inEvent, s.hole)
		}
		if err := heapInvariant(s); err != nil {
			t.Fatalf("seed %d: %v", seed, err)
		}
	}
	for i := range steps {
		if i%runEvery == runEvery-1 {
			s.Run(s.Now() + Time(r.IntN(5)))
			if len(oracle) > 0 && oracle[0].at <= s.Now() {
				t.Fatalf("seed %d: event at %v left pending at %v", seed, oracle[0].at, s.Now())
			}
		} else {
			op(false)
		}
	}
	s.Run(Forever)
	if len(oracle) != 0 || s.Pending() != 0 {
		t.Fatalf("seed %d: %d events never fired", seed, len(oracle))
	}
}

// heapInvariant checks heap order and that every live slot knows its entry's position, and
// that the now queue's live entries are in sequence order.
func heapInvariant(s *Sim) error {
	live, last := 0, uint64(0)
	for _, e := range s.nowQ[s.nowHead:] {
		if sl := s.slots[e.slot]; sl.pos == posNow && sl.nowSeq == e.seq {
			if live > 0 && e.seq <= last {
				return fmt.Errorf("now queue out of order at slot %d", e.slot)
			}
			live, last = live+1, e.seq
		}
	}
	if live != s.nowLive {
		return fmt.Errorf("now queue: %d live entries, nowLive %d", live, s.nowLive)
	}
	h := s.heap
	for j := heapPad; j < len(h); j++ {
		sl := h[j].key & slotMask
		if j == heapPad && s.hole {
			continue // the dead root of the running event
		}
		if int(s.slots[sl].pos) != j {
			return fmt.Errorf("entry %d: slot %d says pos %d", j, sl, s.slots[sl].pos)
		}
		if p := (j-heapPad-1)>>2 + heapPad; j > heapPad && less(h[j], h[p]) {
			return fmt.Errorf("entry %d is less than its parent %d", j, p)
		}
	}
	return nil
}

func TestQueueDoesNotAllocate(t *testing.T) {
	s := New(1)
	r := rand.New(rand.NewPCG(1, 2))
	var fn func()
	fn = func() { s.After(Time(r.IntN(1000)), fn) }
	for range 1000 {
		s.After(Time(r.IntN(1000)), fn)
	}
	s.Run(s.Now() + 10000) // grow the tables
	allocs := testing.AllocsPerRun(10, func() { s.Run(s.Now() + 10000) })
	if allocs != 0 {
		t.Fatalf("%v allocations per run of ~10^4 events", allocs)
	}
}
