package sim

import (
	"fmt"
	"math/rand/v2"
	"testing"
)

// BenchmarkQueueHold is the classic hold model: every fired event schedules one successor at
// now + a random delay, so the pending set stays at its initial size.
func BenchmarkQueueHold(b *testing.B) {
	for _, pending := range []int{1_000, 10_000, 1_000_000} {
		b.Run(fmt.Sprint("pending=", pending), func(b *testing.B) {
			s := New(1)
			r := rand.New(rand.NewPCG(1, 2))
			// a random delay from a precomputed table: the benchmark measures the queue, not PCG
			delays := make([]Time, 1<<16)
			for i := range delays {
				delays[i] = Time(1 + r.Int64N(int64(pending)*100))
			}
			k := 0
			var fn func()
			fn = func() {
				k++
				s.At(s.now+delays[k&(1<<16-1)], fn)
			}
			for range pending {
				s.At(delays[r.IntN(len(delays))], fn)
			}
			s.Run(s.now + Time(pending)*100) // mix the heap into a steady state
			b.ReportAllocs()
			b.ResetTimer()
			start := s.EventsFired()
			for s.EventsFired()-start < uint64(b.N) {
				s.Run(s.now + 1000)
			}
			b.StopTimer()
			n := s.EventsFired() - start
			b.ReportMetric(float64(n)/b.Elapsed().Seconds(), "events/s")
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(n), "ns/event")
		})
	}
}

// BenchmarkProcSwitch measures a process sleeping in a loop: one event and two coroutine
// switches per iteration.
func BenchmarkProcSwitch(b *testing.B) {
	s := New(1)
	defer s.Close()
	s.Spawn("loop", "fg", func(p *Proc) {
		for {
			p.Sleep(1)
		}
	})
	s.Run(0)
	b.ReportAllocs()
	b.ResetTimer()
	s.Run(s.now + Time(b.N))
	b.StopTimer()
	b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "switches/s")
}

func BenchmarkMutexUncontended(b *testing.B) {
	s := New(1)
	defer s.Close()
	m := NewMutex(s, "m", MutexOptions{})
	s.Spawn("x", "fg", func(p *Proc) {
		b.ReportAllocs()
		b.ResetTimer()
		for range b.N {
			m.Lock(p)
			m.Unlock(p)
		}
	})
	s.Run(Forever)
}

// BenchmarkDeviceDo is a closed loop of blocking reads on a 4-channel device.
func BenchmarkDeviceDo(b *testing.B) {
	s := New(1)
	defer s.Close()
	d := NewDevice(s, "d", DeviceConfig{Channels: 4, Read: Exponential(100 * Microsecond)})
	for i := range 8 {
		s.Spawn(fmt.Sprint("r", i), "fg", func(p *Proc) {
			for {
				d.Do(p, Read, 16384)
			}
		})
	}
	s.Run(Millisecond)
	b.ReportAllocs()
	b.ResetTimer()
	var ops uint64
	for ops < uint64(b.N) {
		s.Run(s.now + Millisecond)
		st := d.Stats()
		ops = st.Ops[Read]
	}
	b.StopTimer()
}

func BenchmarkHistogramRecord(b *testing.B) {
	var h Histogram
	for i := range b.N {
		h.Record(Time(i & 0xfffff))
	}
}
