package plot

import (
	"fmt"
	"image/color"
	"math"
	"path/filepath"

	"github.com/ddlsim/ddlsim/model/metrics"
	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/plotutil"
	"gonum.org/v1/plot/vg"
)

// harmOf returns the SLO of a run that measured latency harm ("" none) and whether it did.
func harmOf(ddl []metrics.DDLResult) (slo string, ok bool) {
	for _, d := range ddl {
		if d.Latency != nil {
			return d.Latency.SLO, true
		}
	}
	return "", false
}

// sloThreshold is the SLO's series column and threshold in ms ("", NaN: none).
func sloThreshold(slo string) (string, float64) {
	var q, unit string
	var v float64
	// "p99=5ms": the quantile, the number and its unit (ms, us, s).
	if _, err := fmt.Sscanf(slo, "p%2s=%g%s", &q, &v, &unit); err != nil {
		return "", math.NaN()
	}
	scale := map[string]float64{"ns": 1e-6, "us": 1e-3, "µs": 1e-3, "ms": 1, "s": 1e3}[unit]
	if scale == 0 {
		return "", math.NaN()
	}
	return "lat_p" + q + "_ms", v * scale
}

// Latency draws transaction latency per report interval with the DDL spans shaded: for one
// trace its p50, p95 and p99; for several the SLO's quantile (p99 without an SLO) of each,
// one colour per trace. The SLO's threshold is a dashed line.
func Latency(title string, traces []Trace, slo string) (*plot.Plot, error) {
	p := plot.New()
	p.Title.Text = title
	p.X.Label.Text = "time since end of warmup (s)"
	p.Y.Label.Text = "transaction latency per interval (ms)"
	p.Legend.Top = true
	col, threshold := sloThreshold(slo)
	if col == "" {
		col = "lat_p99_ms"
	}
	type line struct {
		label string
		xy    plotter.XYs
		c     color.Color
	}
	var lines []line
	single := len(traces) == 1
	for i, tr := range traces {
		cols := []string{col}
		if single {
			cols = []string{"lat_p50_ms", "lat_p95_ms", "lat_p99_ms"}
		}
		for j, c := range cols {
			ci := tr.Series.Col(c)
			if ci < 0 {
				return nil, fmt.Errorf("%s: series has no %s column", tr.Label, c)
			}
			l := line{label: tr.Label + " " + c[4:7], xy: xy(tr.Series, ci), c: plotutil.Color(i)}
			if single {
				l.label, l.c = c[4:7], plotutil.Color(j)
			}
			lines = append(lines, l)
		}
	}
	ymax := 0.0
	for _, l := range lines {
		for _, v := range l.xy {
			ymax = math.Max(ymax, v.Y)
		}
	}
	if !math.IsNaN(threshold) {
		ymax = math.Max(ymax, threshold)
	}
	if ymax == 0 {
		ymax = 1
	}
	top := ymax / math.Max(0.5, 0.9-0.055*float64(len(lines)+2))
	p.Y.Min, p.Y.Max = 0, top
	for i, tr := range traces {
		shade := withAlpha(color.Gray{160}, 70)
		if !single {
			shade = withAlpha(plotutil.Color(i), 40)
		}
		var first *plotter.Polygon
		for _, d := range tr.DDL {
			end := math.Max(d.EndS, d.StartS+d.DurationS)
			pg, err := band(d.StartS, end, 0, top, shade)
			if err != nil {
				return nil, err
			}
			p.Add(pg)
			if first == nil {
				first = pg
			}
		}
		if first != nil {
			label := "DDL running"
			if !single {
				label = tr.Label + " DDL"
			}
			p.Legend.Add(label, first)
		}
	}
	for _, l := range lines {
		pl, err := plotter.NewLine(l.xy)
		if err != nil {
			return nil, err
		}
		pl.Color, pl.Width = l.c, vg.Points(1.2)
		p.Add(pl)
		p.Legend.Add(l.label, pl)
	}
	if !math.IsNaN(threshold) && len(lines) > 0 && len(lines[0].xy) > 0 {
		x0, x1 := lines[0].xy[0].X, lines[0].xy[len(lines[0].xy)-1].X
		sl, err := plotter.NewLine(plotter.XYs{{X: x0, Y: threshold}, {X: x1, Y: threshold}})
		if err != nil {
			return nil, err
		}
		sl.Color, sl.Dashes = color.Black, []vg.Length{vg.Points(5), vg.Points(3)}
		p.Add(sl)
		p.Legend.Add("SLO "+slo, sl)
	}
	return p, nil
}

// latencyFigure draws latency.{png,svg} into out when the traces measured latency harm.
func latencyFigure(out, title string, traces []Trace) ([]string, error) {
	if len(traces) == 0 {
		return nil, nil
	}
	slo, ok := harmOf(traces[0].DDL)
	if !ok {
		return nil, nil
	}
	p, err := Latency(title, traces, slo)
	if err != nil {
		return nil, err
	}
	return Save(p, filepath.Join(out, "latency"))
}
