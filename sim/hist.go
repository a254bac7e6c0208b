package sim

import (
	"math"
	"math/bits"
)

// Histogram layout (HDR-style log-linear): values below 64 ns are counted exactly; above,
// each power of two [2^e, 2^(e+1)) is split into 64 equal sub-buckets, so a bucket is at
// most 1/64 of its values wide and reporting its midpoint is within 0.8% of any value in it.
// Values from about 2^42 ns (73 minutes) up share the last bucket, whose quantiles report
// Max; simulated waits and holds are far shorter.
const (
	histSubBits = 6
	histSub     = 1 << histSubBits
	histMaxExp  = 41
	histBuckets = (histMaxExp - histSubBits + 2) * histSub // 2368 × 4 bytes ≈ 9.3 KB
)

// Histogram is a fixed-memory log-bucketed histogram of durations (relative error <= 1%).
// The zero value is empty and ready to use; Record does not allocate. Copying a Histogram
// copies its counts (Stats snapshots rely on that), except that a bucket past 2^32 counts
// keeps its high part in a shared side table: use Clone for a deep copy.
type Histogram struct {
	counts [histBuckets]uint32
	hi     []uint32 // carries of counts, allocated on the first 2^32 overflow of any bucket
	n      uint64
	sum    Time
	min    Time
	max    Time
}

func histIndex(v Time) int {
	if v < histSub {
		return int(v)
	}
	e := bits.Len64(uint64(v)) - 1
	if e > histMaxExp {
		return histBuckets - 1
	}
	return (e-histSubBits+1)<<histSubBits + int(v>>(e-histSubBits))&(histSub-1)
}

// histMid is a representative value of bucket i: exact below 64, else the middle.
func histMid(i int) Time {
	if i < histSub {
		return Time(i)
	}
	e := i>>histSubBits + histSubBits - 1
	low := Time(histSub+i&(histSub-1)) << (e - histSubBits)
	return low + (Time(1)<<(e-histSubBits)-1)/2
}

// Record adds one value; negative values (a caller bug) count as 0.
func (h *Histogram) Record(v Time) {
	v = max(v, 0)
	i := histIndex(v)
	h.counts[i]++
	if h.counts[i] == 0 {
		h.carry(i, 1)
	}
	if h.n == 0 || v < h.min {
		h.min = v
	}
	h.max = max(h.max, v)
	h.n++
	h.sum += v
}

func (h *Histogram) carry(i int, c uint32) {
	if h.hi == nil {
		h.hi = make([]uint32, histBuckets)
	}
	h.hi[i] += c
}

func (h *Histogram) bucket(i int) uint64 {
	c := uint64(h.counts[i])
	if h.hi != nil {
		c += uint64(h.hi[i]) << 32
	}
	return c
}

func (h *Histogram) Count() uint64 { return h.n }
func (h *Histogram) Sum() Time     { return h.sum }
func (h *Histogram) Max() Time     { return h.max }

// Min is the smallest value recorded, 0 if none.
func (h *Histogram) Min() Time { return h.min }

// Mean is exact (from the running sum), rounded to the nanosecond; 0 if empty.
func (h *Histogram) Mean() Time {
	if h.n == 0 {
		return 0
	}
	return Time(math.Round(float64(h.sum) / float64(h.n)))
}

// Quantile returns the value at quantile q in [0, 1] (nearest rank); 0 if empty. q = 0 and
// q = 1 give the exact Min and Max; others are within 1% of a recorded value of that rank.
func (h *Histogram) Quantile(q float64) Time {
	if h.n == 0 {
		return 0
	}
	rank := uint64(math.Ceil(q * float64(h.n)))
	switch {
	case rank <= 1 || q != q:
		return h.min
	case rank >= h.n:
		return h.max
	}
	var seen uint64
	for i := range h.counts {
		if h.counts[i] == 0 && h.hi == nil {
			continue
		}
		if seen += h.bucket(i); seen >= rank {
			if i == histBuckets-1 { // the overflow bucket has no useful midpoint
				return h.max
			}
			return min(max(histMid(i), h.min), h.max)
		}
	}
	return h.max
}

// Merge adds o's values to h.
func (h *Histogram) Merge(o *Histogram) {
	if o.n == 0 {
		return
	}
	for i, c := range o.counts {
		if c == 0 {
			continue
		}
		s, carry := bits.Add32(h.counts[i], c, 0)
		h.counts[i] = s
		if carry != 0 {
			h.carry(i, 1)
		}
	}
	if o.hi != nil {
		for i, c := range o.hi {
			if c != 0 {
				h.carry(i, c)
			}
		}
	}
	if h.n == 0 || o.min < h.min {
		h.min = o.min
	}
	h.max = max(h.max, o.max)
	h.n += o.n
	h.sum += o.sum
}

func (h *Histogram) Reset() { *h = Histogram{} }

// Clone returns an independent copy.
func (h *Histogram) Clone() *Histogram {
	c := h.snapshot()
	return &c
}

func (h *Histogram) snapshot() Histogram {
	c := *h
	if h.hi != nil {
		c.hi = append([]uint32(nil), h.hi...)
	}
	return c
}
