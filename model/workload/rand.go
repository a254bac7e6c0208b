package workload

import (
	"fmt"
	"math"
	"math/rand/v2"
)

// The --rand-type distributions of sysbench 1.0.20 (src/sb_rand.c: sb_rand_uniform,
// sb_rand_gaussian, sb_rand_special, sb_rand_pareto, sb_rand_zipfian; read in the copy of
// akopytov/sysbench whose rand_args default --rand-type to "special", read_file id
// 4002984118), with its defaults: --rand-spec-iter=12, --rand-spec-pct=1,
// --rand-spec-res=75, --rand-pareto-h=0.2, --rand-zipfian-exp=0.8. oltp_common.lua draws an
// id as sysbench.rand.default(1, table_size); Keys returns that id minus 1, a row number in
// [0, n). Every generator consumes uniform doubles in [0, 1) as sb_rand_uniform_double does
// (xoroshiro128+ >> 11, times 2^-53; here math/rand/v2's Float64, also 53 bits).
//
// rand_test.go checks each one draw by draw against a literal transcription of the C code
// (rand_oracle_test.go) and against the distribution's own moments and bands.

// Keys draws row numbers in [0, n) with one of sysbench's --rand-type distributions.
type Keys interface {
	Next(r *rand.Rand) int64
}

// sourceKeys is a Keys that can draw from the PCG behind the *rand.Rand (sim.Stream) directly,
// with the same result.
type sourceKeys interface {
	NextFrom(src *rand.PCG) int64
}

// sysbench 1.0.20's defaults for the distributions' parameters.
const (
	specIter  = 12  // --rand-spec-iter
	specPct   = 1   // --rand-spec-pct
	specRes   = 75  // --rand-spec-res
	paretoH   = 0.2 // --rand-pareto-h
	zipfTheta = 0.8 // --rand-zipfian-exp
)

// NewKeys returns the distribution `name` over n keys (ids 1..n as sysbench draws them).
func NewKeys(name string, n int64) (Keys, error) {
	if n < 1 || n > math.MaxUint32 {
		return nil, fmt.Errorf("rand: %d keys: sysbench draws uint32 ids in [1, 2^32)", n)
	}
	switch name {
	case "uniform":
		return uniform{n}, nil
	case "gaussian":
		return gaussian{n: n, iter: specIter}, nil
	case "special":
		return newSpecial(n, specIter, specPct, specRes), nil
	case "zipfian":
		return newZipf(n, zipfTheta), nil
	case "pareto":
		return pareto{n: n, power: math.Log(paretoH) / math.Log(1-paretoH)}, nil
	}
	return nil, fmt.Errorf("unknown rand type %q", name)
}

// uniform is sb_rand_uniform(1, n) − 1: a + u·(b − a + 1), truncated.
type uniform struct{ n int64 }

func (u uniform) Next(r *rand.Rand) int64 { return int64(uint32(1+r.Float64()*float64(u.n))) - 1 }

// gaussian is sb_rand_gaussian(1, n) − 1: the mean of iter uniforms over [0, n) (an
// Irwin-Hall bell centred on the middle of the range).
type gaussian struct {
	n    int64
	iter int
}

func (g gaussian) Next(r *rand.Rand) int64 {
	t := float64(g.n)
	sum := 0.0
	for i := 0; i < g.iter; i++ {
		sum += r.Float64() * t
	}
	return int64(uint32(sum * (1.0 / float64(g.iter))))
}

// special is sb_rand_special(1, n) − 1, sysbench 1.0's default. With t = n − 1 and one uniform
// u: if u·t·100/(100 − res) < t (probability (100 − res)/100 = 25 %), the value is the mean of
// iter further uniforms scaled to [0, t] (a bell over the whole range, σ ≈ t/12); otherwise
// (75 %) it is u·(d + 1) + t/2 − t·pct/200 with d = t·pct/100, i.e. uniform over the part of
// a pct-wide band in the middle of the range that u ∈ [(100 − res)/100, 1) reaches: the
// 0.75 % of ids from t/2 − t/400 to t/2 + t/200.
type special struct {
	t                 float64 // b − a
	iterMult, resMult float64 // 1/iter, 100/(100 − res)
	pctMult, pct2Mult float64 // pct/100, pct/200
	iter              int
	n                 int64
}

func newSpecial(n int64, iter, pct, res int) special {
	return special{t: float64(n - 1), iter: iter, n: n,
		iterMult: 1.0 / float64(iter), resMult: 100.0 / (100.0 - float64(res)),
		pctMult: float64(pct) / 100.0, pct2Mult: float64(pct) / 200.0}
}

func (s special) Next(r *rand.Rand) int64 {
	rnd := r.Float64()
	if rnd*(s.t*s.resMult) < s.t {
		sum := 0.0
		for i := 0; i < s.iter; i++ {
			sum += r.Float64()
		}
		// `return a + sum * t * rand_iter_mult;`: a double converted to uint32.
		return s.clamp(int64(uint32(1+sum*s.t*s.iterMult)) - 1)
	}
	d := s.t * s.pctMult
	res := rnd*(d+1) + (s.t/2 - s.t*s.pct2Mult)
	return s.clamp(int64(uint32(res)))
}

// NextFrom is Next drawing from r's source src directly (sim.Sim.StreamWithSource): the
// same numbers, as float64(src.Uint64()<<11>>11) / 2^53 is exactly what rand.Rand.Float64
// returns, without an interface call per draw (up to 13 per key).
func (s special) NextFrom(src *rand.PCG) int64 {
	rnd := float64(src.Uint64()<<11>>11) / (1 << 53)
	if rnd*(s.t*s.resMult) < s.t {
		sum := 0.0
		for i := 0; i < s.iter; i++ {
			sum += float64(src.Uint64()<<11>>11) / (1 << 53)
		}
		return s.clamp(int64(uint32(1+sum*s.t*s.iterMult)) - 1)
	}
	d := s.t * s.pctMult
	res := rnd*(d+1) + (s.t/2 - s.t*s.pct2Mult)
	return s.clamp(int64(uint32(res)))
}

// clamp keeps a value in [0, n): the C code can return b + 1 when rnd·(d + 1) rounds up at the
// band's top (never in practice for the pct the lab uses); the model needs a row.
func (s special) clamp(v int64) int64 { return min(max(v, 0), s.n-1) }

// pareto is sb_rand_pareto(1, n) − 1: (b − a + 1)·u^(log h / log(1 − h)), truncated.
type pareto struct {
	n     int64
	power float64
}

func (p pareto) Next(r *rand.Rand) int64 {
	v := int64(uint32(float64(p.n) * math.Pow(r.Float64(), p.power)))
	return min(v, p.n-1)
}

// zipf is sb_rand_zipfian(1, n) − 1: rejection-inversion sampling of a bounded Zipf
// distribution (Hörmann and Derflinger 1996, via Apache Commons RNG's
// RejectionInversionZipfSampler), P(k) ∝ k^−θ for k in [1, n]. Row 0 (id 1) is the most
// frequent.
type zipf struct {
	n                    int64
	e, s, hx1, hIntegral float64 // exponent, zipf_s, zipf_hIntegralX1, hIntegral(n + 0.5)
}

func newZipf(n int64, e float64) *zipf {
	return &zipf{n: n, e: e,
		s:         2 - zipfHIntegralInverse(zipfHIntegral(2.5, e)-zipfH(2, e), e),
		hx1:       zipfHIntegral(1.5, e) - 1,
		hIntegral: zipfHIntegral(float64(n)+0.5, e)}
}

func (z *zipf) Next(r *rand.Rand) int64 {
	for {
		u := z.hIntegral + r.Float64()*(z.hx1-z.hIntegral)
		x := zipfHIntegralInverse(u, z.e)
		k := int64(uint32(x + 0.5))
		if k < 1 {
			k = 1
		} else if k > z.n {
			k = z.n
		}
		if float64(k)-x <= z.s || u >= zipfHIntegral(float64(k)+0.5, z.e)-zipfH(float64(k), z.e) {
			return k - 1
		}
	}
}

// zipfHIntegral is H(x) = (x^(1−e) − 1)/(1 − e) (log x for e = 1), the integral of h.
func zipfHIntegral(x, e float64) float64 {
	logX := math.Log(x)
	return zipfHelper2((1-e)*logX) * logX
}

// zipfH is h(x) = x^−e.
func zipfH(x, e float64) float64 { return math.Exp(-e * math.Log(x)) }

// zipfHIntegralInverse is the inverse of H.
func zipfHIntegralInverse(x, e float64) float64 {
	t := x * (1 - e)
	if t < -1 {
		t = -1 // numerical errors can push t below −1
	}
	return math.Exp(zipfHelper1(t) * x)
}

// zipfHelper1 is log(1 + x)/x, by its Taylor series near 0.
func zipfHelper1(x float64) float64 {
	if math.Abs(x) > 1e-8 {
		return math.Log1p(x) / x
	}
	return 1 - x*(0.5-x*(0.33333333333333333-0.25*x))
}

// zipfHelper2 is (e^x − 1)/x, by its Taylor series near 0.
func zipfHelper2(x float64) float64 {
	if math.Abs(x) > 1e-8 {
		return math.Expm1(x) / x
	}
	return 1 + x*0.5*(1+x*0.33333333333333333*(1+0.25*x))
}
