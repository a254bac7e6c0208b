package sim

import (
	"math"
	"math/rand/v2"
	"slices"
	"testing"
)

func TestHistogramQuantilesOnRandomData(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 1))
	gens := map[string]func() Time{
		"uniform":   func() Time { return Time(r.Int64N(int64(10 * Millisecond))) },
		"lognormal": func() Time { return Time(math.Exp(12 + 2*r.NormFloat64())) },
		"small":     func() Time { return Time(r.IntN(300)) },
		"wide":      func() Time { return Time(math.Exp(r.Float64() * 29)) }, // 1ns..65min
	}
	for _, name := range []string{"uniform", "lognormal", "small", "wide"} {
		var h Histogram
		xs := make([]Time, 100_000)
		var sum Time
		for i := range xs {
			xs[i] = gens[name]()
			h.Record(xs[i])
			sum += xs[i]
		}
		slices.Sort(xs)
		for _, q := range []float64{0, 0.001, 0.1, 0.25, 0.5, 0.9, 0.99, 0.999, 1} {
			rank := max(1, int(math.Ceil(q*float64(len(xs)))))
			exact := xs[rank-1]
			got := h.Quantile(q)
			if math.Abs(float64(got-exact)) > 0.02*float64(exact) {
				t.Errorf("%s q%v: %v, exact %v", name, q, got, exact)
			}
		}
		if h.Count() != uint64(len(xs)) || h.Sum() != sum || h.Max() != xs[len(xs)-1] || h.Min() != xs[0] {
			t.Errorf("%s: count/sum/min/max", name)
		}
		if want := Time(math.Round(float64(sum) / float64(len(xs)))); h.Mean() != want {
			t.Errorf("%s: mean %v want %v", name, h.Mean(), want)
		}
	}
}

func TestHistogramBucketsAreTightAndMonotone(t *testing.T) {
	prev := -1
	for v := Time(0); v < 1<<44; v = v + 1 + v/97 {
		i := histIndex(v)
		if i < prev {
			t.Fatalf("index not monotone at %d", v)
		}
		prev = i
		if v < 1<<42 {
			if m := histMid(i); math.Abs(float64(m-v)) > 0.008*float64(v)+0.5 {
				t.Fatalf("value %d in bucket %d with midpoint %d", v, i, m)
			}
		}
	}
	if histIndex(Forever) != histBuckets-1 {
		t.Fatal("Forever")
	}
}

func TestHistogramBeyondRange(t *testing.T) {
	var h Histogram
	for i := range 100 {
		h.Record(Time(i) * Microsecond)
	}
	h.Record(3 * Hour)
	h.Record(5 * Hour)
	if h.Quantile(0.5) > 50*Microsecond || h.Quantile(0.99) != 5*Hour || h.Max() != 5*Hour {
		t.Fatalf("p50 %v p99 %v", h.Quantile(0.5), h.Quantile(0.99))
	}
}

func TestHistogramZeroMergeReset(t *testing.T) {
	var a, b, all Histogram
	if a.Quantile(0.5) != 0 || a.Mean() != 0 || a.Count() != 0 {
		t.Fatal("zero value")
	}
	r := rand.New(rand.NewPCG(2, 2))
	for i := range 10_000 {
		v := Time(r.Int64N(1e9))
		if i%3 == 0 {
			a.Record(v)
		} else {
			b.Record(v)
		}
		all.Record(v)
	}
	a.Merge(&b)
	if a.counts != all.counts || a.Count() != all.Count() || a.Sum() != all.Sum() || a.Min() != all.Min() || a.Max() != all.Max() {
		t.Fatal("merge differs from recording everything in one")
	}
	a.Record(-5)
	if a.Min() != 0 {
		t.Fatal("negative not clamped")
	}
	a.Reset()
	if a.Count() != 0 || a.Max() != 0 || a.Quantile(1) != 0 {
		t.Fatal("reset")
	}
}

func TestHistogramCountsPast32Bits(t *testing.T) {
	var h Histogram
	h.counts[histIndex(5)] = math.MaxUint32
	h.n = math.MaxUint32
	h.min, h.max = 5, 5
	h.Record(5)
	h.Record(1000)
	if got := h.bucket(histIndex(5)); got != 1<<32 {
		t.Fatalf("bucket %d", got)
	}
	if h.Quantile(0.5) != 5 || h.Quantile(1) != 1000 {
		t.Fatal("quantile after carry")
	}
	c := h.Clone()
	var m Histogram
	m.Merge(c)
	m.Merge(c)
	if m.bucket(histIndex(5)) != 2<<32 {
		t.Fatal("merge carry", m.bucket(histIndex(5)))
	}
}

func TestHistogramRecordDoesNotAllocate(t *testing.T) {
	var h Histogram
	if a := testing.AllocsPerRun(1000, func() { h.Record(12345) }); a != 0 {
		t.Fatal(a)
	}
}
