package sim

import (
	"math"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
)

func sampleN(d Dist, n int) []Time {
	r := rand.New(rand.NewPCG(3, 4))
	out := make([]Time, n)
	for i := range out {
		out[i] = d.Sample(r)
	}
	slices.Sort(out)
	return out
}

func meanOf(xs []Time) float64 {
	var s float64
	for _, x := range xs {
		s += float64(x)
	}
	return s / float64(len(xs))
}

func within(t *testing.T, what string, got, want, tol float64) {
	t.Helper()
	if math.Abs(got-want) > tol*math.Abs(want) {
		t.Errorf("%s = %.6g, want %.6g ±%.1f%%", what, got, want, tol*100)
	}
}

func TestDistributions(t *testing.T) {
	const n = 200_000
	if x := sampleN(Constant(7), 10); x[0] != 7 || x[9] != 7 || Constant(7).Mean() != 7 {
		t.Fatal("constant")
	}

	e := Exponential(Millisecond)
	xs := sampleN(e, n)
	within(t, "exponential mean", meanOf(xs), float64(Millisecond), 0.01)
	within(t, "exponential median", float64(xs[n/2]), math.Ln2*float64(Millisecond), 0.02)

	l := LogNormal(100*Microsecond, 2*Millisecond)
	xs = sampleN(l, n)
	within(t, "lognormal p50", float64(xs[n/2]), float64(100*Microsecond), 0.02)
	within(t, "lognormal p99", float64(xs[n*99/100]), float64(2*Millisecond), 0.04)
	within(t, "lognormal mean vs Mean()", meanOf(xs), float64(l.Mean()), 0.03)
}

func TestEmpirical(t *testing.T) {
	d, err := Empirical([]float64{0.5, 0.9, 1}, []Time{100, 200, 1000})
	if err != nil {
		t.Fatal(err)
	}
	e := d.(*empirical)
	for _, c := range []struct{ u, want float64 }{
		{0, 100}, {0.3, 100}, {0.5, 100}, // point mass at v0 below q0
		{0.7, 150}, {0.9, 200}, {0.95, 600}, {1, 1000},
	} {
		if got := e.at(c.u); math.Abs(got-c.want) > 1e-9 {
			t.Errorf("at(%v) = %v, want %v", c.u, got, c.want)
		}
	}
	// 0.5·100 + 0.4·150 + 0.1·600
	if d.Mean() != 170 {
		t.Errorf("mean %v", d.Mean())
	}
	within(t, "sampled mean", meanOf(sampleN(d, 200_000)), 170, 0.01)

	_, err = Empirical([]float64{0.5, 0.4, 0.9}, []Time{10, 5, -1})
	if err == nil {
		t.Fatal("no error")
	}
	for _, want := range []string{"quantile[1]", "value[1]", "value[2] = -1ns is negative", "last quantile is 0.9"} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("error %q lacks %q", err, want)
		}
	}
	if _, err := Empirical(nil, nil); err == nil {
		t.Error("empty accepted")
	}
}

func TestStreamsIndependentOfCreationOrder(t *testing.T) {
	a, b := New(5), New(5)
	a.Stream("x")
	ya := a.Stream("y").Uint64()
	yb := b.Stream("y").Uint64()
	if ya != yb {
		t.Fatal("stream depends on creation order")
	}
	if New(6).Stream("y").Uint64() == ya || a.Stream("x").Uint64() == ya {
		t.Fatal("streams not distinct")
	}
	if first, again := a.Stream("x"), a.Stream("x"); first != again {
		t.Fatal("not cached")
	}
}
