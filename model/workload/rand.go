package workload

import (
	"fmt"
	"math"
	"math/rand/v2"
)

// Keys draws row numbers in [0, n) with one of sysbench's --rand-type distributions.
type Keys interface {
	Next(r *rand.Rand) int64
}

// sourceKeys is a Keys that can draw from the PCG behind the *rand.Rand (sim.Stream) directly,
// with the same result.
type sourceKeys interface {
	NextFrom(src *rand.PCG) int64
}

// NewKeys returns the distribution `name` over n keys.
func NewKeys(name string, n int64) (Keys, error) {
	switch name {
	case "uniform":
		return uniform{n}, nil
	case "special":
		return special{n: n, pct: 0.01, res: 0.75, iter: 12}, nil
	case "zipfian":
		return newZipf(n, 0.8), nil
	case "pareto":
		return pareto{n: n, h: 0.2}, nil
	}
	return nil, fmt.Errorf("unknown rand type %q", name)
}

type uniform struct{ n int64 }

func (u uniform) Next(r *rand.Rand) int64 { return r.Int64N(u.n) }

// special is sysbench 1.0's default (sb_rand_special, --rand-spec-pct=1 --rand-spec-res=75
// --rand-spec-iter=12): res of the draws fall in a pct-wide "special" part of the range, the
// rest spread over the remainder; within each part the value is an Irwin-Hall (sum of iter
// uniforms) bell, so the special part is a hot spot around its middle.
type special struct {
	n        int64
	pct, res float64
	iter     int
}

func (s special) Next(r *rand.Rand) int64 {
	sum := 0.0
	for i := 0; i < s.iter; i++ {
		sum += r.Float64()
	}
	return s.from(sum, r.Float64())
}

// NextFrom is Next drawing from r's source src directly (sim.Sim.StreamWithSource): the
// same numbers, as float64(src.Uint64()<<11>>11) / 2^53 is exactly what rand.Rand.Float64
// returns, without an interface call per draw (13 per key).
func (s special) NextFrom(src *rand.PCG) int64 {
	sum := 0.0
	for i := 0; i < s.iter; i++ {
		sum += float64(src.Uint64()<<11>>11) / (1 << 53)
	}
	return s.from(sum, float64(src.Uint64()<<11>>11)/(1<<53))
}

// from maps the Irwin-Hall sum and the special-part draw u to a key.
func (s special) from(sum, u float64) int64 {
	d := sum / float64(s.iter)
	hot := int64(math.Max(1, float64(s.n)*s.pct))
	if u < s.res {
		return int64(d*float64(hot)) % s.n
	}
	rest := s.n - hot
	if rest <= 0 {
		return int64(d*float64(s.n)) % s.n
	}
	return hot + int64(d*float64(rest))%rest
}

// pareto is sysbench's sb_rand_pareto with --rand-pareto-h=0.2.
type pareto struct {
	n int64
	h float64
}

func (p pareto) Next(r *rand.Rand) int64 {
	pw := math.Log(p.h) / math.Log(1-p.h)
	v := int64(float64(p.n) * math.Pow(r.Float64(), pw))
	if v >= p.n {
		v = p.n - 1
	}
	return v
}

// zipf is the Gray et al. ("Quickly generating billion-record synthetic databases", SIGMOD
// 1994) generator sysbench's --rand-type=zipfian uses, exponent 0.8 (--rand-zipfian-exp).
// zeta(n) is summed exactly up to 1e6 terms and by the Euler-Maclaurin integral beyond.
type zipf struct {
	n                        int64
	theta, alpha, zetan, eta float64
	half                     float64
}

func zeta(n int64, theta float64) float64 {
	const exact = 1_000_000
	m := n
	if m > exact {
		m = exact
	}
	s := 0.0
	for i := int64(1); i <= m; i++ {
		s += math.Pow(float64(i), -theta)
	}
	if n > m {
		// ∫_{m}^{n} x^-θ dx plus the endpoint correction.
		a, b := float64(m), float64(n)
		s += (math.Pow(b, 1-theta)-math.Pow(a, 1-theta))/(1-theta) + (math.Pow(b, -theta)-math.Pow(a, -theta))/2
	}
	return s
}

var zetaCache = map[[2]float64]float64{}

func newZipf(n int64, theta float64) *zipf {
	k := [2]float64{float64(n), theta}
	zn, ok := zetaCache[k]
	if !ok {
		zn = zeta(n, theta)
		zetaCache[k] = zn
	}
	z2 := 1 + math.Pow(0.5, theta)
	return &zipf{n: n, theta: theta, alpha: 1 / (1 - theta), zetan: zn,
		eta: (1 - math.Pow(2/float64(n), 1-theta)) / (1 - z2/zn), half: math.Pow(0.5, theta)}
}

func (z *zipf) Next(r *rand.Rand) int64 {
	u := r.Float64()
	uz := u * z.zetan
	if uz < 1 {
		return 0
	}
	if uz < 1+z.half {
		return 1
	}
	v := int64(float64(z.n) * math.Pow(z.eta*u-z.eta+1, z.alpha))
	if v >= z.n {
		v = z.n - 1
	}
	return v
}
