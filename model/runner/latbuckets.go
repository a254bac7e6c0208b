package runner

import (
	"math"
	"math/bits"
	"sort"
)

// latBuckets is one report interval's transaction latencies in log-linear buckets (each power
// of two of nanoseconds split in latSub parts, so a bucket's midpoint is within 1/(2·latSub)
// of any latency in it), kept as runs of (bucket, count) over the occupied buckets only: a
// couple of KiB per interval where a full histogram takes ~9 KiB. The recorder keeps one for
// each interval a DDL statement ran in, so a statement's latency quantiles pool all its
// transactions.
type latBuckets []latRun

type latRun struct {
	bucket uint16
	n      uint32
}

const latSubBits = 5 // 32 sub-buckets per octave: midpoints within 1.6%

func latBucket(ns uint64) uint16 {
	if ns < 1<<latSubBits {
		return uint16(ns)
	}
	e := bits.Len64(ns) - 1
	return uint16((e-latSubBits+1)<<latSubBits + int(ns>>(e-latSubBits))&(1<<latSubBits-1))
}

// latMid is a representative latency (ns) of bucket b: exact below 2^latSubBits, else the
// bucket's middle.
func latMid(b uint16) float64 {
	if b < 1<<latSubBits {
		return float64(b)
	}
	e := int(b)>>latSubBits + latSubBits - 1
	low := float64(uint64(1<<latSubBits+int(b)&(1<<latSubBits-1)) << (e - latSubBits))
	return low + float64(uint64(1)<<(e-latSubBits))/2
}

// newLatBuckets buckets sorted latencies in milliseconds.
func newLatBuckets(sortedMs []float64) latBuckets {
	var out latBuckets
	for _, v := range sortedMs {
		b := latBucket(uint64(math.Max(0, math.Round(v*1e6))))
		if n := len(out); n > 0 && out[n-1].bucket == b {
			out[n-1].n++
			continue
		}
		out = append(out, latRun{b, 1})
	}
	return out
}

// latQuantiles pools intervals' buckets and returns the latencies (ms) at quantiles qs (the
// nearest-rank bucket's midpoint), NaN each when there is no latency.
func latQuantiles(ivs []latBuckets, qs ...float64) []float64 {
	counts := map[uint16]uint64{}
	var total uint64
	for _, iv := range ivs {
		for _, r := range iv {
			counts[r.bucket] += uint64(r.n)
			total += uint64(r.n)
		}
	}
	out := make([]float64, len(qs))
	if total == 0 {
		for i := range out {
			out[i] = math.NaN()
		}
		return out
	}
	keys := make([]int, 0, len(counts))
	for b := range counts {
		keys = append(keys, int(b))
	}
	sort.Ints(keys)
	for i, q := range qs {
		rank := uint64(math.Max(1, math.Ceil(q*float64(total))))
		var seen uint64
		for _, b := range keys {
			if seen += counts[uint16(b)]; seen >= rank {
				out[i] = latMid(uint16(b)) / 1e6
				break
			}
		}
	}
	return out
}
