package runner

import (
	"math"
	"sort"
	"testing"

	"gonum.org/v1/gonum/stat"
)

// Pooled bucket quantiles agree with the exact quantile of all latencies within the buckets'
// resolution (1/64 of the value), and every bucket holds the values it claims.
func TestLatQuantilesMatchExact(t *testing.T) {
	var all []float64
	var ivs []latBuckets
	x := uint64(12345)
	for iv := 0; iv < 7; iv++ {
		var lat []float64
		for i := 0; i < 500+iv*300; i++ {
			x = x*6364136223846793005 + 1442695040888963407
			u := float64(x>>11) / (1 << 53)
			lat = append(lat, 0.2*math.Exp(5*u*float64(1+iv%3))) // 0.2 ms .. seconds, skewed per interval
		}
		sort.Float64s(lat)
		all = append(all, lat...)
		ivs = append(ivs, newLatBuckets(lat))
	}
	sort.Float64s(all)
	got := latQuantiles(ivs, 0.5, 0.95, 0.99)
	for i, q := range []float64{0.5, 0.95, 0.99} {
		want := stat.Quantile(q, stat.Empirical, all, nil)
		if math.Abs(got[i]-want) > want/60 {
			t.Errorf("q%.2f: %v, exact %v", q, got[i], want)
		}
	}
	for ns := uint64(0); ns < 1<<22; ns += 997 {
		if m := latMid(latBucket(ns)); math.Abs(m-float64(ns)) > float64(ns)/60+0.5 {
			t.Fatalf("%d ns in bucket %d, midpoint %v", ns, latBucket(ns), m)
		}
	}
	if q := latQuantiles(nil, 0.95); !math.IsNaN(q[0]) {
		t.Errorf("no latencies: %v", q)
	}
}
