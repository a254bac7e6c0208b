package sim

import (
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"sort"
)

// Dist samples a latency.
type Dist interface {
	Sample(r *rand.Rand) Time
	Mean() Time
}

var (
	_ Dist = constant(0)
	_ Dist = exponential{}
	_ Dist = logNormal{}
	_ Dist = (*empirical)(nil)
)

type constant Time

func Constant(v Time) Dist {
	if v < 0 {
		panic(fmt.Sprintf("sim: Constant(%v)", v))
	}
	return constant(v)
}

func (c constant) Sample(*rand.Rand) Time { return Time(c) }
func (c constant) Mean() Time             { return Time(c) }
func (c constant) String() string         { return "constant(" + Time(c).String() + ")" }

type exponential struct{ mean float64 }

// Exponential is memoryless service or inter-arrival time with the given mean.
func Exponential(mean Time) Dist {
	if mean < 0 {
		panic(fmt.Sprintf("sim: Exponential(%v)", mean))
	}
	return exponential{float64(mean)}
}

func (e exponential) Sample(r *rand.Rand) Time { return Time(math.Round(r.ExpFloat64() * e.mean)) }
func (e exponential) Mean() Time               { return Time(math.Round(e.mean)) }
func (e exponential) String() string           { return "exponential(" + Time(e.mean).String() + ")" }

// z99 is the standard normal 99th percentile.
const z99 = 2.3263478740408408

type logNormal struct{ mu, sigma float64 }

// LogNormal has median p50 and 99th percentile p99: mu = ln p50, sigma = (ln p99 - ln p50)/z99.
// Storage latency is right-skewed like this; p50 and p99 are what device data sheets and
// fio reports give.
func LogNormal(p50, p99 Time) Dist {
	if p50 <= 0 || p99 < p50 {
		panic(fmt.Sprintf("sim: LogNormal(p50=%v, p99=%v) needs 0 < p50 <= p99", p50, p99))
	}
	mu := math.Log(float64(p50))
	return logNormal{mu, (math.Log(float64(p99)) - mu) / z99}
}

func (l logNormal) Sample(r *rand.Rand) Time {
	return Time(math.Round(math.Exp(l.mu + l.sigma*r.NormFloat64())))
}

func (l logNormal) Mean() Time { return Time(math.Round(math.Exp(l.mu + l.sigma*l.sigma/2))) }

type empirical struct {
	q []float64
	v []float64
}

// Empirical interpolates linearly between (quantile, value) points; q ascending, last q == 1.
// Values must not decrease. If q[0] > 0, every quantile below q[0] takes the value v[0] (a
// point mass, not a ramp from zero: measured latencies have a floor); add a (0, min) point to
// say otherwise.
func Empirical(q []float64, v []Time) (Dist, error) {
	var errs []error
	if len(q) == 0 || len(q) != len(v) {
		return nil, fmt.Errorf("sim: Empirical needs equally many quantiles and values, got %d and %d", len(q), len(v))
	}
	for i := range q {
		if !(q[i] >= 0 && q[i] <= 1) {
			errs = append(errs, fmt.Errorf("quantile[%d] = %v is outside [0, 1]", i, q[i]))
		}
		if v[i] < 0 {
			errs = append(errs, fmt.Errorf("value[%d] = %v is negative", i, v[i]))
		}
		if i > 0 && !(q[i] > q[i-1]) {
			errs = append(errs, fmt.Errorf("quantile[%d] = %v does not increase (previous %v)", i, q[i], q[i-1]))
		}
		if i > 0 && v[i] < v[i-1] {
			errs = append(errs, fmt.Errorf("value[%d] = %v is below value[%d] = %v", i, v[i], i-1, v[i-1]))
		}
	}
	if q[len(q)-1] != 1 {
		errs = append(errs, fmt.Errorf("last quantile is %v, want 1", q[len(q)-1]))
	}
	if len(errs) > 0 {
		return nil, fmt.Errorf("sim: Empirical: %w", errors.Join(errs...))
	}
	e := &empirical{q: append([]float64(nil), q...), v: make([]float64, len(v))}
	for i, x := range v {
		e.v[i] = float64(x)
	}
	return e, nil
}

func (e *empirical) Sample(r *rand.Rand) Time { return Time(math.Round(e.at(r.Float64()))) }

// at is the inverse CDF.
func (e *empirical) at(u float64) float64 {
	i := sort.SearchFloat64s(e.q, u) // first q[i] >= u
	if i == 0 {
		return e.v[0]
	}
	if i >= len(e.q) {
		return e.v[len(e.v)-1]
	}
	f := (u - e.q[i-1]) / (e.q[i] - e.q[i-1])
	return e.v[i-1] + f*(e.v[i]-e.v[i-1])
}

func (e *empirical) Mean() Time {
	m := e.q[0] * e.v[0]
	for i := 1; i < len(e.q); i++ {
		m += (e.q[i] - e.q[i-1]) * (e.v[i] + e.v[i-1]) / 2
	}
	return Time(math.Round(m))
}
