package sim

import (
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
// cancel, reschedule and pop operations and demands the same firing order.
func TestQueueAgainstOracle(t *testing.T) {
	for seed := range uint64(20) {
		queueVsOracle(t, seed, 3000)
	}
}

func TestQueueRenumberingKeepsOrder(t *testing.T) {
	old := seqLimit
	seqLimit = 50
	defer func() { seqLimit = old }()
	for seed := range uint64(5) {
		queueVsOracle(t, seed, 2000)
	}
}

func queueVsOracle(t *testing.T, seed uint64, steps int) {
	t.Helper()
	r := rand.New(rand.NewPCG(seed, 99))
	s := New(seed)
	var oracle []oracleEv
	ids := map[int]EventID{}
	var live []int // tags, in creation order (not a map: deterministic picks)
	var got, want []int
	seq, tag := 0, 0
	insert := func(e oracleEv) {
		i, _ := slices.BinarySearchFunc(oracle, e, func(a, b oracleEv) int {
			if a.at != b.at {
				return int(a.at - b.at)
			}
			return a.seq - b.seq
		})
		oracle = slices.Insert(oracle, i, e)
	}
	dropLive := func(tg int) {
		live = slices.DeleteFunc(live, func(x int) bool { return x == tg })
	}
	for range steps {
		switch op := r.IntN(10); {
		case op < 5: // schedule, often at equal times
			tg := tag
			tag++
			at := s.Now() + Time(r.IntN(20))
			ids[tg] = s.At(at, func() { got = append(got, tg) })
			insert(oracleEv{at, seq, tg})
			seq++
			live = append(live, tg)
		case op < 6 && len(live) > 0: // cancel
			tg := live[r.IntN(len(live))]
			if !s.Cancel(ids[tg]) {
				t.Fatalf("seed %d: cancel of live %d failed", seed, tg)
			}
			oracle = slices.DeleteFunc(oracle, func(e oracleEv) bool { return e.tag == tg })
			dropLive(tg)
		case op < 7 && len(live) > 0: // reschedule, earlier or later
			tg := live[r.IntN(len(live))]
			at := s.Now() + Time(r.IntN(20))
			if !s.Reschedule(ids[tg], at) {
				t.Fatalf("seed %d: reschedule of live %d failed", seed, tg)
			}
			oracle = slices.DeleteFunc(oracle, func(e oracleEv) bool { return e.tag == tg })
			insert(oracleEv{at, seq, tg})
			seq++
		default: // fire everything up to a random horizon
			until := s.Now() + Time(r.IntN(5))
			s.Run(until)
			for len(oracle) > 0 && oracle[0].at <= until {
				want = append(want, oracle[0].tag)
				dropLive(oracle[0].tag)
				oracle = oracle[1:]
			}
		}
		if s.Pending() != len(oracle) {
			t.Fatalf("seed %d: pending %d, oracle %d", seed, s.Pending(), len(oracle))
		}
	}
	s.Run(Forever)
	for _, e := range oracle {
		want = append(want, e.tag)
	}
	if !slices.Equal(got, want) {
		t.Fatalf("seed %d: firing order differs from oracle\n got %v\nwant %v", seed, got, want)
	}
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
