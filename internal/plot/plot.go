// Package plot draws ddlsim's figures with gonum.org/v1/plot, each as PNG and SVG:
//
//   - Throughput: per-interval throughput of one run, each DDL statement's interval shaded and
//     its phases marked with dashed lines;
//   - Overlay: the same for several policies (compare), one line each — the mean over seeds at
//     each interval — with each policy's DDL intervals shaded in its colour;
//   - MetricVsParam: a metric against a swept parameter, one line per policy (or per value of
//     the other swept parameters), with the 95% confidence band over seeds; against named
//     categories (policies) bars from zero with 95% CI error bars instead, one per line.
//
// Dir draws whatever fits a saved results directory (run, compare or sweep); RunResult draws a
// run held in memory. Plots are drawn from saved data only, so `ddlsim plot DIR` redraws them
// without simulating.
package plot

import (
	"bytes"
	"fmt"
	"image/color"
	"math"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strconv"
	"strings"

	"github.com/ddlsim/ddlsim/internal/output"
	"github.com/ddlsim/ddlsim/model/metrics"
	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/plotutil"
	"gonum.org/v1/plot/vg"
)

// Size of every figure.
var (
	Width  = 9 * vg.Inch
	Height = 4.5 * vg.Inch
)

// Trace is one run's (or one policy's mean) time series with its DDL statements.
type Trace struct {
	Label  string
	Series *metrics.Series
	DDL    []metrics.DDLResult
}

// ThroughputColumn picks the series column to draw: "tps", else "qps", else the first column
// after time_s.
func ThroughputColumn(s *metrics.Series) int {
	for _, name := range []string{"tps", "qps"} {
		if i := s.Col(name); i >= 0 {
			return i
		}
	}
	if len(s.Columns) > 1 {
		return 1
	}
	return -1
}

func xy(s *metrics.Series, col int) plotter.XYs {
	t := s.Col("time_s")
	if t < 0 {
		t = 0
	}
	var out plotter.XYs
	for _, r := range s.Rows {
		if col < len(r) && !math.IsNaN(r[col]) {
			out = append(out, plotter.XY{X: r[t], Y: r[col]})
		}
	}
	return out
}

func withAlpha(c color.Color, a uint8) color.Color {
	r, g, b, _ := c.RGBA()
	return color.NRGBA{uint8(r >> 8), uint8(g >> 8), uint8(b >> 8), a}
}

// band is a filled rectangle over [x0, x1] spanning [y0, y1].
func band(x0, x1, y0, y1 float64, c color.Color) (*plotter.Polygon, error) {
	pg, err := plotter.NewPolygon(plotter.XYs{{X: x0, Y: y0}, {X: x1, Y: y0}, {X: x1, Y: y1}, {X: x0, Y: y1}})
	if err != nil {
		return nil, err
	}
	pg.Color = c
	pg.LineStyle.Width = 0
	return pg, nil
}

// Throughput draws traces overlaid: DDL intervals shaded (grey for a single trace, the trace's
// colour otherwise) and, for a single trace, phase boundaries as dashed lines with their names.
func Throughput(title string, traces []Trace) (*plot.Plot, error) {
	p := plot.New()
	p.Title.Text = title
	p.X.Label.Text = "time since end of warmup (s)"
	p.Legend.Top = true
	var ymax float64
	lines := make([]plotter.XYs, len(traces))
	for i, tr := range traces {
		col := ThroughputColumn(tr.Series)
		if col < 0 {
			return nil, fmt.Errorf("%s: series has no value column", tr.Label)
		}
		if p.Y.Label.Text == "" {
			p.Y.Label.Text = tr.Series.Columns[col] + " per interval"
		}
		lines[i] = xy(tr.Series, col)
		for _, v := range lines[i] {
			ymax = math.Max(ymax, v.Y)
		}
	}
	if ymax == 0 {
		ymax = 1
	}
	// Headroom for the legend: a line per trace and one per trace's shaded DDL span.
	entries := 0
	for _, tr := range traces {
		entries++
		if len(tr.DDL) > 0 {
			entries++
		}
	}
	top := ymax / math.Max(0.5, 0.9-0.055*float64(entries))
	p.Y.Min, p.Y.Max = 0, top
	single := len(traces) == 1
	var shades []*plotter.Polygon // one per trace with a DDL, for the legend
	for i, tr := range traces {
		shade := withAlpha(color.Gray{160}, 70)
		if !single {
			shade = withAlpha(plotutil.Color(i), 40)
		}
		var first *plotter.Polygon
		for _, d := range tr.DDL {
			end := d.EndS
			if end <= d.StartS {
				end = d.StartS + d.DurationS
			}
			pg, err := band(d.StartS, end, 0, top, shade)
			if err != nil {
				return nil, err
			}
			p.Add(pg)
			if first == nil {
				first = pg
			}
			if single {
				if err := addPhaseMarks(p, d, top); err != nil {
					return nil, err
				}
			}
		}
		shades = append(shades, first)
	}
	for i, tr := range traces {
		l, err := plotter.NewLine(lines[i])
		if err != nil {
			return nil, err
		}
		l.Color = plotutil.Color(i)
		l.Width = vg.Points(1.2)
		p.Add(l)
		p.Legend.Add(tr.Label, l)
	}
	// The shaded spans are in the legend: "DDL running" for one run, "<label> DDL" per trace.
	for i, tr := range traces {
		if shades[i] == nil {
			continue
		}
		label := "DDL running"
		if n := len(tr.DDL); n > 1 {
			label = fmt.Sprintf("DDL running (%d statements)", n)
		}
		if !single {
			label = tr.Label + " DDL"
		}
		p.Legend.Add(label, shades[i])
	}
	return p, nil
}

func addPhaseMarks(p *plot.Plot, d metrics.DDLResult, top float64) error {
	// Phases too short to see (a row-log apply of milliseconds in a minute-long DDL) and
	// phases inside another get no mark; of two labels closer than 2% of the statement, the longer phase keeps its label.
	span := d.EndS - d.StartS
	var shown []metrics.Phase
	within := metrics.Within(d.Phases) // a merge pass inside its merge gets no mark of its own
	for i, ph := range d.Phases {
		if within[i] || span > 0 && ph.EndS-ph.StartS < 0.005*span {
			continue
		}
		l, err := plotter.NewLine(plotter.XYs{{X: ph.StartS, Y: 0}, {X: ph.StartS, Y: top}})
		if err != nil {
			return err
		}
		l.Color = color.Gray{90}
		l.Dashes = []vg.Length{vg.Points(3), vg.Points(3)}
		l.Width = vg.Points(0.6)
		p.Add(l)
		if n := len(shown); n > 0 && span > 0 && ph.StartS-shown[n-1].StartS < 0.02*span {
			if ph.EndS-ph.StartS > shown[n-1].EndS-shown[n-1].StartS {
				shown[n-1] = ph
			}
			continue
		}
		shown = append(shown, ph)
	}
	var pts plotter.XYs
	var names []string
	for _, ph := range shown {
		pts = append(pts, plotter.XY{X: ph.StartS, Y: top * 0.98})
		names = append(names, ph.Name)
	}
	pts = append(pts, plotter.XY{X: d.StartS, Y: top * 0.02})
	names = append(names, d.Op+" "+d.Table)
	lb, err := plotter.NewLabels(plotter.XYLabels{XYs: pts, Labels: names})
	if err != nil {
		return err
	}
	for i := range lb.TextStyle {
		lb.TextStyle[i].Font.Size = vg.Points(7)
		if i < len(names)-1 {
			lb.TextStyle[i].Rotation = -math.Pi / 2
		}
	}
	lb.Offset = vg.Point{X: vg.Points(2)}
	p.Add(lb)
	return nil
}

// MeanSeries averages several runs' series interval by interval (rows matched by position;
// runs of one scenario share the report interval). Columns are taken from the first series.
func MeanSeries(ss []*metrics.Series) *metrics.Series {
	if len(ss) == 0 {
		return nil
	}
	out := &metrics.Series{Columns: ss[0].Columns}
	for i := range ss[0].Rows {
		row := make([]float64, len(out.Columns))
		for c := range row {
			var sum float64
			var n int
			for _, s := range ss {
				if i < len(s.Rows) && c < len(s.Rows[i]) && !math.IsNaN(s.Rows[i][c]) {
					sum += s.Rows[i][c]
					n++
				}
			}
			row[c] = math.NaN()
			if n > 0 {
				row[c] = sum / float64(n)
			}
		}
		out.Rows = append(out.Rows, row)
	}
	return out
}

// Save writes p as base.png and base.svg (each atomically, output.WriteFileAtomic) and
// returns the two paths.
func Save(p *plot.Plot, base string) ([]string, error) {
	var out []string
	for _, ext := range []string{"png", "svg"} {
		w, err := p.WriterTo(Width, Height, ext)
		if err != nil {
			return out, err
		}
		var b bytes.Buffer
		if _, err := w.WriteTo(&b); err != nil {
			return out, err
		}
		if err := output.WriteFileAtomic(base+"."+ext, b.Bytes()); err != nil {
			return out, err
		}
		out = append(out, base+"."+ext)
	}
	return out, nil
}

// numRe matches a number with an optional unit suffix ("16", "8GiB", "100ms", "1.5e3").
var numRe = regexp.MustCompile(`^\s*([-+]?[0-9]*\.?[0-9]+(?:[eE][-+]?[0-9]+)?)\s*([a-zA-Zµ%]*)\s*$`)

var unitScale = map[string]float64{
	"": 1, "%": 1,
	"b": 1, "k": 1e3, "kb": 1e3, "kib": 1 << 10, "m": 1e6, "mb": 1e6, "mib": 1 << 20,
	"g": 1e9, "gb": 1e9, "gib": 1 << 30, "tb": 1e12, "tib": 1 << 40,
	"ns": 1e-9, "us": 1e-6, "µs": 1e-6, "ms": 1e-3, "s": 1, "min": 60, "h": 3600,
}

// numeric parses a parameter value as a number (with a unit) for ordering and placing it on
// an axis; ok is false for non-numeric values (policy names).
func numeric(v string) (float64, bool) {
	m := numRe.FindStringSubmatch(v)
	if m == nil {
		return 0, false
	}
	x, err := strconv.ParseFloat(m[1], 64)
	if err != nil {
		return 0, false
	}
	sc, ok := unitScale[strings.ToLower(m[2])]
	if !ok {
		return 0, false
	}
	return x * sc, true
}

// Axis roles in a sweep: which parameter is on x, which ones make separate lines.
type sweepAxes struct {
	varying []string            // parameters with more than one value, in column order
	values  map[string][]string // their distinct values, sorted
}

func axesOf(rows []output.Row) sweepAxes {
	a := sweepAxes{values: map[string][]string{}}
	seen := map[string]map[string]bool{}
	for _, path := range output.ColumnsOf(rows).Params {
		seen[path] = map[string]bool{}
		for _, r := range rows {
			v, _ := r.Params.Get(path)
			if !seen[path][v] {
				seen[path][v] = true
				a.values[path] = append(a.values[path], v)
			}
		}
		if len(a.values[path]) > 1 {
			a.varying = append(a.varying, path)
		}
		sortValues(a.values[path])
	}
	return a
}

// sortValues orders values numerically when they all parse as numbers, else keeps their order
// of first appearance.
func sortValues(vs []string) {
	for _, v := range vs {
		if _, ok := numeric(v); !ok {
			return
		}
	}
	sort.SliceStable(vs, func(i, j int) bool {
		a, _ := numeric(vs[i])
		b, _ := numeric(vs[j])
		return a < b
	})
}

// MetricVsParam draws metric against parameter x. Runs are grouped into lines by the values of
// the other varying parameters (the policy, typically); each line is the mean over seeds with
// its 95% CI band. Plain numbers are placed on a numeric axis; values with units or names are
// placed at equal spacing in sorted order and labelled as written.
func MetricVsParam(rows []output.Row, x, metric string) (*plot.Plot, error) {
	return metricVs(rows, x, metric, false)
}

// MetricVsSetting is MetricVsParam with bars from zero for every kind of value, one colour
// per setting: what compare draws, whose points are settings to weigh against each other
// (innodb_ddl_threads 2, 4, 8 compared, not a trend over a range).
func MetricVsSetting(rows []output.Row, x, metric string) (*plot.Plot, error) {
	return metricVs(rows, x, metric, true)
}

func metricVs(rows []output.Row, x, metric string, asBars bool) (*plot.Plot, error) {
	ax := axesOf(rows)
	xs := ax.values[x]
	pos := map[string]float64{}
	plain := true
	for _, v := range xs {
		if _, err := strconv.ParseFloat(v, 64); err != nil {
			plain = false
		}
	}
	for i, v := range xs {
		pos[v] = float64(i)
		if plain {
			pos[v], _ = strconv.ParseFloat(v, 64)
		}
	}
	var others []string
	for _, p := range ax.varying {
		if p != x {
			others = append(others, p)
		}
	}
	type key struct{ line, x string }
	vals := map[key][]float64{}
	var lineOrder []string
	seenLine := map[string]bool{}
	for i := range rows {
		r := &rows[i]
		pt := r.Params
		var parts []string
		for _, o := range others {
			v, _ := pt.Get(o)
			parts = append(parts, v)
		}
		line := strings.Join(parts, ", ")
		if !seenLine[line] {
			seenLine[line] = true
			lineOrder = append(lineOrder, line)
		}
		xv, _ := pt.Get(x)
		for _, m := range metrics.KeyMetrics(r.Metrics, r.DDL) {
			if m.Name == metric {
				vals[key{line, xv}] = append(vals[key{line, xv}], m.Value)
			}
		}
	}
	p := plot.New()
	p.Title.Text = metric + " vs " + x
	p.X.Label.Text = x
	p.Y.Label.Text = metric
	p.Legend.Top = true
	if asBars || categorical(xs) {
		return bars(p, xs, lineOrder, func(line, xv string) metrics.Stat { return metrics.MeanCI(vals[key{line, xv}]) }, metric)
	}
	if !plain {
		p.NominalX(xs...)
	}
	lowest := math.Inf(1)
	defer func() {
		// From zero, so the lines' heights compare as ratios (a metric that goes negative
		// keeps its own range).
		if lowest >= 0 {
			p.Y.Min = 0
		}
	}()
	for li, line := range lineOrder {
		var mean, lo, hi plotter.XYs
		for _, xv := range xs {
			st := metrics.MeanCI(vals[key{line, xv}])
			if st.N == 0 {
				continue
			}
			half := st.Half
			if math.IsNaN(half) {
				half = 0
			}
			mean = append(mean, plotter.XY{X: pos[xv], Y: st.Mean})
			lowest = math.Min(lowest, st.Mean-half)
			lo = append(lo, plotter.XY{X: pos[xv], Y: st.Mean - half})
			hi = append(hi, plotter.XY{X: pos[xv], Y: st.Mean + half})
		}
		if len(mean) == 0 {
			continue
		}
		c := plotutil.Color(li)
		if len(mean) > 1 {
			ring := append(plotter.XYs(nil), lo...)
			for i := len(hi) - 1; i >= 0; i-- {
				ring = append(ring, hi[i])
			}
			pg, err := plotter.NewPolygon(ring)
			if err != nil {
				return nil, err
			}
			pg.Color = withAlpha(c, 50)
			pg.LineStyle.Width = 0
			p.Add(pg)
		}
		l, s, err := plotter.NewLinePoints(mean)
		if err != nil {
			return nil, err
		}
		l.Color, s.Color = c, c
		// Lines with the same values (two policies that do the same) would hide each
		// other: each has its own dashes and marker.
		l.Dashes = plotutil.Dashes(li)
		s.Shape = plotutil.Shape(li)
		eb, err := plotter.NewYErrorBars(errBars{mean, lo, hi})
		if err != nil {
			return nil, err
		}
		eb.Color = c
		p.Add(l, s, eb)
		label := line
		if label == "" {
			label = metric
		}
		p.Legend.Add(label, l, s)
	}
	return p, nil
}

// categorical reports whether values are names (policies) rather than quantities: then a
// line between them would claim an order and a trend that are not there.
func categorical(vs []string) bool {
	for _, v := range vs {
		if _, ok := numeric(v); !ok {
			return true
		}
	}
	return false
}

// bars draws a metric against categories: for each category one bar per line (the other
// parameters' values), its height the mean over seeds and its error bar the 95% CI, on a
// value axis that includes zero, so bar lengths compare as ratios.
func bars(p *plot.Plot, xs, lines []string, stat func(line, x string) metrics.Stat, metric string) (*plot.Plot, error) {
	p.NominalX(xs...)
	n := max(len(lines), 1)
	width := 0.8 / float64(n)
	lo, hi := 0.0, 0.0
	for li, line := range lines {
		c := plotutil.Color(li)
		var mean, elo, ehi plotter.XYs
		var legend *plotter.Polygon
		for xi, xv := range xs {
			st := stat(line, xv)
			if st.N == 0 || math.IsNaN(st.Mean) {
				continue
			}
			half := st.Half
			if math.IsNaN(half) {
				half = 0
			}
			x := float64(xi) - 0.4 + width*(float64(li)+0.5)
			fill := c
			if len(lines) == 1 {
				fill = plotutil.Color(xi) // one bar per category: the category's colour, as in the throughput figure
			}
			pg, err := band(x-width*0.45, x+width*0.45, 0, st.Mean, withAlpha(fill, 170))
			if err != nil {
				return nil, err
			}
			p.Add(pg)
			if legend == nil {
				legend = pg
			}
			mean = append(mean, plotter.XY{X: x, Y: st.Mean})
			elo = append(elo, plotter.XY{X: x, Y: st.Mean - half})
			ehi = append(ehi, plotter.XY{X: x, Y: st.Mean + half})
			lo, hi = math.Min(lo, st.Mean-half), math.Max(hi, st.Mean+half)
		}
		if len(mean) == 0 {
			continue
		}
		eb, err := plotter.NewYErrorBars(errBars{mean, elo, ehi})
		if err != nil {
			return nil, err
		}
		eb.Color = color.Black
		eb.LineStyle.Width = vg.Points(1)
		p.Add(eb)
		if line != "" {
			p.Legend.Add(line, legend)
		}
	}
	if hi == lo {
		hi = lo + 1
	}
	pad := 0.15 * (hi - lo) // headroom for the legend and the error bars' caps
	p.Y.Min, p.Y.Max = math.Min(0, lo-pad*float64(btoi(lo < 0))), hi+pad
	p.X.Min, p.X.Max = -0.6, float64(len(xs))-0.4
	p.Y.Label.Text = metric + " (mean, 95% CI)"
	return p, nil
}

func btoi(b bool) int {
	if b {
		return 1
	}
	return 0
}

// errBars adapts mean/low/high to plotter.YErrorer.
type errBars struct{ mean, lo, hi plotter.XYs }

func (e errBars) Len() int                    { return len(e.mean) }
func (e errBars) XY(i int) (float64, float64) { return e.mean[i].X, e.mean[i].Y }
func (e errBars) YError(i int) (float64, float64) {
	return e.mean[i].Y - e.lo[i].Y, e.hi[i].Y - e.mean[i].Y
}

// slug makes a metric or path usable in a file name.
func slug(s string) string {
	return strings.Trim(regexp.MustCompile(`[^A-Za-z0-9_.-]+`).ReplaceAllString(s, "_"), "_")
}

// Files lists the PNG figures in a plots directory, sorted (the report embeds these).
func Files(dir string) []string {
	m, _ := filepath.Glob(filepath.Join(dir, "*.png"))
	sort.Strings(m)
	return m
}

func ensureDir(d string) error { return os.MkdirAll(d, 0o755) }
