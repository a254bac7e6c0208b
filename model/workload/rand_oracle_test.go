package workload

import (
	"math"
	"math/rand/v2"
)

// sbOracle is sysbench 1.0.20's src/sb_rand.c transcribed line by line (read_file id
// 4002984118; sb_rand_zipfian from the later copy, id 37737084029, since 1.0.20 has none), with
// the globals sb_rand_init computes from the defaults. It is deliberately naive: no shared code
// with rand.go, the C's uint32 arithmetic kept, so a draw-by-draw agreement means rand.go's
// rewrite (precomputed constants, 0-based rows) changed nothing.
type sbOracle struct {
	r *rand.Rand

	randIter                                             uint
	randIterMult, randPctMult, randPct2Mult, randResMult float64
	paretoPower                                          float64
	zipfExp, zipfS, zipfHIntegralX1                      float64
}

func newSBOracle(r *rand.Rand) *sbOracle {
	o := &sbOracle{r: r}
	o.randIter = 12 // rand-spec-iter
	o.randIterMult = 1.0 / float64(o.randIter)
	randPct := 1.0 // rand-spec-pct
	o.randPctMult = randPct / 100.0
	o.randPct2Mult = randPct / 200.0
	randRes := 75.0 // rand-spec-res
	o.randResMult = 100.0 / (100.0 - randRes)
	paretoH := 0.2 // rand-pareto-h
	o.paretoPower = math.Log(paretoH) / math.Log(1.0-paretoH)
	o.zipfExp = 0.8 // rand-zipfian-exp
	o.zipfS = 2 - oHIntegralInverse(oHIntegral(2.5, o.zipfExp)-oH(2, o.zipfExp), o.zipfExp)
	o.zipfHIntegralX1 = oHIntegral(1.5, o.zipfExp) - 1
	return o
}

func (o *sbOracle) uniformDouble() float64 { return o.r.Float64() }

// uint32_t sb_rand_uniform(uint32_t a, uint32_t b) { return a + sb_rand_uniform_double() * (b - a + 1); }
func (o *sbOracle) uniform(a, b uint32) uint32 {
	return uint32(float64(a) + o.uniformDouble()*float64(b-a+1))
}

func (o *sbOracle) gaussian(a, b uint32) uint32 {
	t := float64(b - a + 1)
	sum := 0.0
	for i := uint(0); i < o.randIter; i++ {
		sum += o.uniformDouble() * t
	}
	return a + uint32(sum*o.randIterMult)
}

func (o *sbOracle) special(a, b uint32) uint32 {
	t := float64(b - a)
	rangeSize := t * o.randResMult
	rnd := o.uniformDouble()
	res := rnd * rangeSize
	if res < t {
		sum := 0.0
		for i := uint(0); i < o.randIter; i++ {
			sum += o.uniformDouble()
		}
		return uint32(float64(a) + sum*t*o.randIterMult)
	}
	d := t * o.randPctMult
	res = rnd * (d + 1)
	res += t/2 - t*o.randPct2Mult
	return a + uint32(res)
}

func (o *sbOracle) pareto(a, b uint32) uint32 {
	return a + uint32(float64(b-a+1)*math.Pow(o.uniformDouble(), o.paretoPower))
}

func (o *sbOracle) zipfianInt(n uint32, e, s, hIntegralX1 float64) uint32 {
	hIntegralNumberOfElements := oHIntegral(float64(n)+0.5, e)
	for {
		u := hIntegralNumberOfElements + o.uniformDouble()*(hIntegralX1-hIntegralNumberOfElements)
		x := oHIntegralInverse(u, e)
		k := uint32(x + 0.5)
		if k < 1 {
			k = 1
		} else if k > n {
			k = n
		}
		if float64(k)-x <= s || u >= oHIntegral(float64(k)+0.5, e)-oH(float64(k), e) {
			return k
		}
	}
}

func (o *sbOracle) zipfian(a, b uint32) uint32 {
	return a + o.zipfianInt(b-a+1, o.zipfExp, o.zipfS, o.zipfHIntegralX1) - 1
}

func oHIntegral(x, e float64) float64 {
	logX := math.Log(x)
	return oHelper2((1-e)*logX) * logX
}

func oH(x, e float64) float64 { return math.Exp(-e * math.Log(x)) }

func oHIntegralInverse(x, e float64) float64 {
	t := x * (1 - e)
	if t < -1 {
		t = -1
	}
	return math.Exp(oHelper1(t) * x)
}

func oHelper1(x float64) float64 {
	if math.Abs(x) > 1e-8 {
		return math.Log1p(x) / x
	}
	return 1 - x*(0.5-x*(0.33333333333333333-0.25*x))
}

func oHelper2(x float64) float64 {
	if math.Abs(x) > 1e-8 {
		return math.Expm1(x) / x
	}
	return 1 + x*0.5*(1+x*0.33333333333333333*(1+0.25*x))
}
