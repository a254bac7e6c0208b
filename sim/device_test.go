package sim

import (
	"math"
	"testing"
)

// poissonLoad submits n operations to d with exponential inter-arrival times of mean 1/λ.
func poissonLoad(s *Sim, d *Device, n int, interarrival Time) {
	gap := Exponential(interarrival)
	r := s.Stream("arrivals")
	s.Spawn("generator", "load", func(p *Proc) {
		for range n {
			p.Sleep(gap.Sample(r))
			d.Submit(Read, 4096, nil)
		}
	})
}

func TestDeviceMM1QueueWait(t *testing.T) {
	// ρ = λ/μ = 0.7 with mean service 1ms: Wq = ρ/(μ−λ) = 0.7/(1000−700) s = 2.333ms.
	// 400k customers put the standard error near 1%, so ±5% is a mechanism check.
	const service, rho = Millisecond, 0.7
	interarrival := Time(math.Round(float64(service) / rho))
	s := New(42)
	defer s.Close()
	d := NewDevice(s, "disk", DeviceConfig{Channels: 1, Read: Exponential(service)})
	poissonLoad(s, d, 400_000, interarrival)
	s.Run(Forever)
	mu, lambda := 1/service.Seconds(), 1/interarrival.Seconds()
	want := rho / (mu - lambda)
	st := d.Stats()
	got := st.QueueWait.Mean().Seconds()
	if math.Abs(got-want)/want > 0.05 {
		t.Fatalf("M/M/1 mean queue wait %.4gs, want %.4gs ±5%%", got, want)
	}
	// Response time = wait + service: 1/(μ−λ).
	if resp := st.Latency[Read].Mean().Seconds(); math.Abs(resp-1/(mu-lambda))*(mu-lambda) > 0.05 {
		t.Fatalf("M/M/1 mean response %.4gs, want %.4gs", resp, 1/(mu-lambda))
	}
	if st.Ops[Read] != 400_000 || st.Bytes[Read] != 400_000*4096 || st.InFlight != 0 {
		t.Fatalf("ops %d bytes %d inflight %d", st.Ops[Read], st.Bytes[Read], st.InFlight)
	}
}

func TestDeviceMD1QueueWait(t *testing.T) {
	// Pollaczek–Khinchine with deterministic service: Wq = ρ/(2μ(1−ρ)) = 1.1667ms at ρ=0.7.
	const service, rho = Millisecond, 0.7
	s := New(7)
	defer s.Close()
	d := NewDevice(s, "disk", DeviceConfig{Channels: 1, Read: Constant(service)})
	poissonLoad(s, d, 300_000, Time(math.Round(float64(service)/rho)))
	s.Run(Forever)
	want := rho * service.Seconds() / (2 * (1 - rho))
	st := d.Stats()
	if got := st.QueueWait.Mean().Seconds(); math.Abs(got-want)/want > 0.05 {
		t.Fatalf("M/D/1 mean queue wait %.4gs, want %.4gs ±5%%", got, want)
	}
}

func TestDeviceChannelsAndFIFO(t *testing.T) {
	s := New(1)
	defer s.Close()
	d := NewDevice(s, "nvme", DeviceConfig{Channels: 2, Write: Constant(100 * Microsecond)})
	var done []Time
	for range 5 {
		d.Submit(Write, 16384, func() { done = append(done, s.Now()) })
	}
	if st := d.Stats(); st.InFlight != 5 {
		t.Fatal("in flight", st.InFlight)
	}
	s.Run(Forever)
	want := []Time{100, 100, 200, 200, 300}
	for i := range want {
		if done[i] != want[i]*Microsecond {
			t.Fatalf("completions %v", done)
		}
	}
	if st := d.Stats(); st.QueueWait.Max() != 200*Microsecond || st.Latency[Write].Max() != 300*Microsecond {
		t.Fatalf("wait max %v latency max %v", st.QueueWait.Max(), st.Latency[Write].Max())
	}
}

func TestDeviceBandwidthCap(t *testing.T) {
	// 100 MB/s, 8 channels, 1MB writes with 50µs latency: bandwidth-bound, one every 10ms
	// whatever the channel count; a 4KB read behind them still waits for the timeline.
	s := New(1)
	defer s.Close()
	d := NewDevice(s, "hdd", DeviceConfig{Channels: 8, Read: Constant(50 * Microsecond),
		Write: Constant(50 * Microsecond), BandwidthBytes: 100e6})
	var ends []Time
	s.Spawn("writer", "flush", func(p *Proc) {
		for range 4 {
			d.Submit(Write, 1_000_000, func() { ends = append(ends, s.Now()) })
		}
		d.Do(p, Read, 4096)
		ends = append(ends, p.Now())
	})
	s.Run(Forever)
	want := []Time{10 * Millisecond, 20 * Millisecond, 30 * Millisecond, 40 * Millisecond, 40*Millisecond + 40960}
	for i := range want {
		if ends[i] != want[i] {
			t.Fatalf("ends %v, want %v", ends, want)
		}
	}
	// Unlimited bandwidth: latency only.
	s2 := New(1)
	defer s2.Close()
	d2 := NewDevice(s2, "ram", DeviceConfig{Channels: 1, Read: Constant(Microsecond)})
	var at Time
	s2.Spawn("r", "fg", func(p *Proc) { d2.Do(p, Read, 1<<30); at = p.Now() })
	s2.Run(Forever)
	if at != Microsecond {
		t.Fatal(at)
	}
}

func TestDeviceStatsSnapshotIsIndependent(t *testing.T) {
	s := New(1)
	defer s.Close()
	d := NewDevice(s, "d", DeviceConfig{Sync: Constant(Millisecond)})
	d.Submit(Sync, 0, nil)
	s.Run(Forever)
	snap := d.Stats()
	d.Submit(Sync, 0, nil)
	s.Run(Forever)
	now := d.Stats()
	if snap.Latency[Sync].Count() != 1 || now.Latency[Sync].Count() != 2 {
		t.Fatal("snapshot changed")
	}
}

func TestDeviceDoDoesNotAllocate(t *testing.T) {
	s := New(1)
	defer s.Close()
	d := NewDevice(s, "d", DeviceConfig{Channels: 4, Read: LogNormal(80*Microsecond, Millisecond)})
	s.Spawn("reader", "fg", func(p *Proc) {
		for {
			d.Do(p, Read, 16384)
		}
	})
	s.Run(Second)
	allocs := testing.AllocsPerRun(10, func() { s.Run(s.Now() + 100*Millisecond) })
	if allocs != 0 {
		t.Fatalf("%v allocs", allocs)
	}
}
