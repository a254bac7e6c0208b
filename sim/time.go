package sim

import (
	"math"
	"strconv"
)

// Time is virtual time in nanoseconds since the start of the simulation. It is also used for
// durations; the kernel never reads the wall clock.
type Time int64

const (
	Nanosecond  Time = 1
	Microsecond      = 1000 * Nanosecond
	Millisecond      = 1000 * Microsecond
	Second           = 1000 * Millisecond
	Minute           = 60 * Second
	Hour             = 60 * Minute

	// Forever is the largest Time; Run(Forever) runs until the queue drains or Stop.
	Forever Time = math.MaxInt64
)

// Seconds returns t in (floating-point) seconds, for reports.
func (t Time) Seconds() float64 { return float64(t) / float64(Second) }

// String prints t for humans and logs: "850ns", "12.5µs", "1.5ms", "2.000s" (seconds always
// with milliseconds, so columns of run times line up), "3m20s", "1h2m3.5s". Sub-second units
// keep at most three decimals and truncate rather than round, so a printed value never
// exceeds the real one.
func (t Time) String() string {
	if t < 0 {
		if t == math.MinInt64 {
			return "-" + Time(math.MaxInt64).String()
		}
		return "-" + (-t).String()
	}
	var b []byte
	switch {
	case t < Microsecond:
		b = strconv.AppendInt(b, int64(t), 10)
		b = append(b, "ns"...)
	case t < Millisecond:
		b = appendFrac(b, t, Microsecond)
		b = append(b, "µs"...)
	case t < Second:
		b = appendFrac(b, t, Millisecond)
		b = append(b, "ms"...)
	case t < Minute:
		b = strconv.AppendInt(b, int64(t/Second), 10)
		ms := int64(t%Second) / int64(Millisecond)
		b = append(b, '.', byte('0'+ms/100), byte('0'+ms/10%10), byte('0'+ms%10), 's')
	default:
		if t >= Hour {
			b = strconv.AppendInt(b, int64(t/Hour), 10)
			b = append(b, 'h')
			t %= Hour
		}
		b = strconv.AppendInt(b, int64(t/Minute), 10)
		b = append(b, 'm')
		b = appendFrac(b, t%Minute, Second)
		b = append(b, 's')
	}
	return string(b)
}

// appendFrac appends t/unit with up to three decimals, trailing zeros dropped.
func appendFrac(b []byte, t, unit Time) []byte {
	b = strconv.AppendInt(b, int64(t/unit), 10)
	frac := int64(t%unit) * 1000 / int64(unit)
	if frac == 0 {
		return b
	}
	d := [3]byte{byte('0' + frac/100), byte('0' + frac/10%10), byte('0' + frac%10)}
	n := 3
	for d[n-1] == '0' {
		n--
	}
	b = append(b, '.')
	return append(b, d[:n]...)
}
