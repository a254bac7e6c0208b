package metrics

import (
	"fmt"
	"math"
	"sort"
	"strconv"
	"strings"

	"gonum.org/v1/gonum/stat"
	"gonum.org/v1/gonum/stat/distuv"
)

// Every statistic ddlsim reports is computed in this file and keymetrics.go: a run's summary
// over its series (Summarize), its key metrics (KeyMetrics: what compare, sweep, the figures
// and the console's DDL table show), the statistics a validation file may name (RunStats), and
// the mean ± 95% confidence interval over seeds (MeanCI). Writers and tables format them;
// they compute nothing.

// Mean is the arithmetic mean, 0 for no values (an interval-less run reports 0, not NaN).
func Mean(xs []float64) float64 {
	if len(xs) == 0 {
		return 0
	}
	return stat.Mean(xs, nil)
}

// CV is the coefficient of variation (standard deviation / mean), 0 for fewer than two values
// or a zero mean.
func CV(xs []float64) float64 {
	if len(xs) < 2 {
		return 0
	}
	m, sd := stat.MeanStdDev(xs, nil)
	if m == 0 {
		return 0
	}
	return sd / m
}

// Column is one column of the series, every interval's value in order (nil when the series
// has no such column).
func (s *Series) Column(name string) []float64 {
	c := s.Col(name)
	if c < 0 {
		return nil
	}
	out := make([]float64, len(s.Rows))
	for i, r := range s.Rows {
		out[i] = r[c]
	}
	return out
}

// Summarize is a run's summary metrics over its measured report intervals, in the order
// docs/output.md lists them: TPS mean, min, median and CV, then the mean of the key columns
// (and of the CPU-sharing columns when the series has them).
func Summarize(s *Series) Summary {
	tps := s.Column("tps")
	var sum Summary
	add := func(n string, v float64) { sum = append(sum, Metric{Name: n, Value: v}) }
	add("tps_mean", Mean(tps))
	sorted := append([]float64(nil), tps...)
	sort.Float64s(sorted)
	if len(sorted) > 0 {
		add("tps_min", sorted[0])
		add("tps_p50", stat.Quantile(0.5, stat.Empirical, sorted, nil))
	}
	add("tps_cv", CV(tps))
	for _, c := range []string{"qps", "iud_per_s", "commits_per_s", "lat_p95_ms", "hit_ratio", "dirty_pages",
		"pages_written_per_s", "cpu_util"} {
		add(c+"_mean", Mean(s.Column(c)))
	}
	for _, c := range CPUColumns {
		if s.Col(c) >= 0 {
			add(c+"_mean", Mean(s.Column(c)))
		}
	}
	add("lru_mutex_wait_ms_per_s_mean", Mean(s.Column("lru_mutex_wait_ms_per_s")))
	add("flush_mutex_wait_ms_per_s_mean", Mean(s.Column("flush_mutex_wait_ms_per_s")))
	return sum
}

// Stat is a sample's mean and the half-width of its 95% confidence interval
// (Student t with n−1 degrees of freedom × standard error). Half is NaN for n < 2.
// For a DDL duration, Unfinished and Failed count the runs left out of it (their statement
// was still running at the end, or failed), and Bound is the shortest time an unfinished one
// had run (each ran longer than that).
type Stat struct {
	N                  int
	Mean, Half         float64
	Unfinished, Failed int
	Bound              float64
}

// MeanCI computes a Stat, ignoring NaNs (runs where the metric had no data).
func MeanCI(xs []float64) Stat {
	var v []float64
	for _, x := range xs {
		if !math.IsNaN(x) {
			v = append(v, x)
		}
	}
	s := Stat{N: len(v), Mean: math.NaN(), Half: math.NaN()}
	if len(v) == 0 {
		return s
	}
	if len(v) == 1 {
		s.Mean = v[0]
		return s
	}
	mean, sd := stat.MeanStdDev(v, nil)
	t := distuv.StudentsT{Mu: 0, Sigma: 1, Nu: float64(len(v) - 1)}.Quantile(0.975)
	s.Mean, s.Half = mean, t*sd/math.Sqrt(float64(len(v)))
	return s
}

// String prints "mean ± half" in plain notation (never 1.435e+05): both to the last digit of
// the half-width's two significant ones (659 ± 19, 3.348 ± 0.060) but at most three digits
// past the mean's fourth (0.9999900 ± 0.0000005), and with one run only the mean.
func (s Stat) String() string {
	switch {
	case s.N == 0:
		return "—"
	case math.IsNaN(s.Half) || math.IsInf(s.Half, 0):
		return Plain(s.Mean, 4)
	case s.Half == 0:
		return Plain(s.Mean, 4) + " ± 0"
	}
	dec := max(min(decimals(s.Half, 2), decimals(s.Mean, 4)+3), 0)
	half := strconv.FormatFloat(s.Half, 'f', dec, 64)
	if h, _ := strconv.ParseFloat(half, 64); h == 0 {
		half = Plain(s.Half, 2)
	}
	return strconv.FormatFloat(s.Mean, 'f', dec, 64) + " ± " + half
}

// Cell is a table cell as printed: the Stat, and for a DDL duration with unfinished or failed
// runs, what they were: "unfinished (> 600 s)" when every run was, else the mean of the others
// followed by "(1 unfinished, > 600 s)".
func (s Stat) Cell() string {
	var notes []string
	if s.Unfinished > 0 {
		b := Plain(s.Bound, 4)
		if s.N == 0 && s.Failed == 0 {
			return "unfinished (> " + b + " s)"
		}
		notes = append(notes, fmt.Sprintf("%d unfinished, > %s s", s.Unfinished, b))
	}
	if s.Failed > 0 {
		if s.N == 0 && s.Unfinished == 0 {
			return "failed"
		}
		notes = append(notes, fmt.Sprintf("%d failed", s.Failed))
	}
	if len(notes) == 0 {
		return s.String()
	}
	return s.String() + " (" + strings.Join(notes, "; ") + ")"
}

// decimals is the number of digits after the point that shows v with sig significant digits
// (negative when v is larger than sig digits).
func decimals(v float64, sig int) int {
	if v == 0 || math.IsNaN(v) || math.IsInf(v, 0) {
		return 0
	}
	return sig - 1 - int(math.Floor(math.Log10(math.Abs(v))))
}

// Plain prints v with sig significant digits in plain notation, trailing zeros dropped:
// numbers of more digits than sig are printed whole (143500, 1234568; never 1.435e+05),
// small ones with as many zeros as they need (0.00052). NaN is "—", infinities "∞", "-∞".
// It is the number format of what people read (console tables, reports, figures); files use
// FormatFloat.
func Plain(v float64, sig int) string {
	switch {
	case math.IsNaN(v):
		return "—"
	case math.IsInf(v, 1):
		return "∞"
	case math.IsInf(v, -1):
		return "-∞"
	case v == 0:
		return "0"
	}
	dec := decimals(v, sig)
	if dec <= 0 {
		return strconv.FormatFloat(v, 'f', 0, 64)
	}
	r, _ := strconv.ParseFloat(strconv.FormatFloat(v, 'g', sig, 64), 64) // round to sig digits
	out := strconv.FormatFloat(r, 'f', max(decimals(r, sig), 0), 64)
	if strings.Contains(out, ".") {
		out = strings.TrimRight(strings.TrimRight(out, "0"), ".")
	}
	return out
}
