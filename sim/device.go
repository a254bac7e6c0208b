package sim

import (
	"fmt"
	"math"
	"math/rand/v2"
)

type Op uint8

const (
	Read Op = iota
	Write
	Sync
)

func (o Op) String() string {
	switch o {
	case Read:
		return "read"
	case Write:
		return "write"
	case Sync:
		return "sync"
	}
	return fmt.Sprintf("op%d", uint8(o))
}

type DeviceConfig struct {
	Channels       int  // operations in service at once (queue depth); <= 0 means 1
	Read, Write    Dist // nil = no latency
	Sync           Dist
	BandwidthBytes float64 // bytes per second; 0 = unlimited
}

// Device is a storage device with parallel channels, a FIFO queue and a bandwidth cap.
//
// An operation waits in the queue for a free channel, then takes a latency sampled from its
// operation's Dist. The bandwidth cap is one timeline shared by all channels: an operation of
// B bytes reserves B/BandwidthBytes of it starting no earlier than its own start, and
// completes at max(start + latency, end of its reservation). So small random I/O is latency
// bound and large sequential I/O is bandwidth bound, with no double counting.
type Device struct {
	s         *Sim
	name      string
	rng       *rand.Rand
	dists     [3]Dist
	channels  int
	nsPerByte float64
	bwUntil   Time

	busy  int
	queue fifo[*ioReq]
	spare []*ioReq // recycled requests: no allocation per operation in steady state
	stats DeviceStats
}

type ioReq struct {
	d      *Device
	op     Op
	bytes  int64
	submit Time
	p      *Proc  // blocked in Do, or nil
	done   func() // Submit's callback, or nil
	fire   func() // completion event, bound once per request
}

type DeviceStats struct {
	Ops       [3]uint64 // completed operations by Op
	Bytes     [3]uint64 // bytes of completed operations by Op
	QueueWait Histogram // submit to start of service
	Latency   [3]Histogram
	InFlight  int // submitted and not yet completed: queued plus in service
}

// NewDevice returns a device whose latencies come from the stream "device/"+name.
func NewDevice(s *Sim, name string, cfg DeviceConfig) *Device {
	if cfg.BandwidthBytes < 0 || math.IsNaN(cfg.BandwidthBytes) {
		panic(fmt.Sprintf("sim: device %s: bandwidth %v", name, cfg.BandwidthBytes))
	}
	d := &Device{s: s, name: name, rng: s.Stream("device/" + name), channels: max(1, cfg.Channels),
		dists: [3]Dist{cfg.Read, cfg.Write, cfg.Sync}}
	for i, x := range d.dists {
		if x == nil {
			d.dists[i] = Constant(0)
		}
	}
	if cfg.BandwidthBytes > 0 {
		d.nsPerByte = float64(Second) / cfg.BandwidthBytes
	}
	return d
}

func (d *Device) Name() string { return d.name }

// Stats returns a snapshot (histograms are copied, so it does not change later).
func (d *Device) Stats() DeviceStats {
	st := d.stats
	st.QueueWait = d.stats.QueueWait.snapshot()
	for i := range st.Latency {
		st.Latency[i] = d.stats.Latency[i].snapshot()
	}
	return st
}

// Do blocks p for one operation of bytes (queueing + latency + bandwidth).
func (d *Device) Do(p *Proc, op Op, bytes int64) {
	r := d.req(op, bytes)
	r.p = p
	d.submit(r)
	p.Park()
}

// Submit starts an asynchronous operation; done (may be nil) runs as an event at completion.
func (d *Device) Submit(op Op, bytes int64, done func()) {
	r := d.req(op, bytes)
	r.done = done
	d.submit(r)
}

func (d *Device) req(op Op, bytes int64) *ioReq {
	if op > Sync {
		panic(fmt.Sprintf("sim: device %s: bad op %d", d.name, op))
	}
	if bytes < 0 {
		panic(fmt.Sprintf("sim: device %s: %d bytes", d.name, bytes))
	}
	var r *ioReq
	if n := len(d.spare); n > 0 {
		r = d.spare[n-1]
		d.spare = d.spare[:n-1]
	} else {
		r = &ioReq{d: d}
		r.fire = func() { r.d.complete(r) }
	}
	r.op, r.bytes, r.submit = op, bytes, d.s.now
	return r
}

func (d *Device) submit(r *ioReq) {
	d.stats.InFlight++
	if d.busy < d.channels {
		d.start(r)
		return
	}
	d.queue.push(r)
}

func (d *Device) start(r *ioReq) {
	now := d.s.now
	d.busy++
	d.stats.QueueWait.Record(now - r.submit)
	end := now + d.dists[r.op].Sample(d.rng)
	if d.nsPerByte > 0 && r.bytes > 0 {
		bs := max(now, d.bwUntil)
		d.bwUntil = bs + Time(math.Ceil(float64(r.bytes)*d.nsPerByte))
		end = max(end, d.bwUntil)
	}
	d.s.At(end, r.fire)
}

func (d *Device) complete(r *ioReq) {
	d.busy--
	d.stats.InFlight--
	d.stats.Ops[r.op]++
	d.stats.Bytes[r.op] += uint64(r.bytes)
	d.stats.Latency[r.op].Record(d.s.now - r.submit)
	if d.queue.len() > 0 {
		d.start(d.queue.pop())
	}
	p, done := r.p, r.done
	r.p, r.done = nil, nil
	d.spare = append(d.spare, r)
	if p != nil {
		d.s.resumeNow(p) // this event is its wake-up: no second event
	} else if done != nil {
		done()
	}
}
