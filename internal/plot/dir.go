package plot

import (
	"encoding/csv"
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"

	"github.com/ddlsim/ddlsim/internal/output"
	"github.com/ddlsim/ddlsim/model/metrics"
)

// PlotsDir is the sub-directory of a results directory that holds its figures.
const PlotsDir = "plots"

// Run draws one run's throughput figure into dir/plots/throughput.{png,svg} and returns the
// files written. It is what `ddlsim run --plot` calls with the run's result.
func Run(dir, title string, s *metrics.Series, ddl []metrics.DDLResult) ([]string, error) {
	out := filepath.Join(dir, PlotsDir)
	if err := ensureDir(out); err != nil {
		return nil, err
	}
	p, err := Throughput(title, []Trace{{Label: title, Series: s, DDL: ddl}})
	if err != nil {
		return nil, err
	}
	files, err := Save(p, filepath.Join(out, "throughput"))
	if err != nil {
		return files, err
	}
	lat, err := latencyFigure(out, "latency: "+title, []Trace{{Label: title, Series: s, DDL: ddl}})
	return append(files, lat...), err
}

// Dir draws every figure that fits a saved results directory into dir/plots/ and returns the
// files written:
//
//   - compare (manifest kind "compare"): throughput of every policy overlaid (mean over seeds),
//     and each key metric against the policy with its CI;
//   - sweep: each key metric against each swept parameter, one line per combination of the
//     other swept parameters, with CI bands; and the overlaid throughput when the sweep kept
//     its series (--series);
//   - a single run's directory (series.csv, as `ddlsim run --out` writes it): its throughput.
func Dir(dir string) ([]string, error) { return DirWith(dir, Options{}) }

// Options control DirWith.
type Options struct {
	// Partial draws a series that was cut short (output.Partial) as far as it goes, with a
	// warning to Warn, instead of refusing it.
	Partial bool
	Warn    io.Writer
}

func (o Options) warn(p *output.Partial) {
	if o.Warn != nil {
		fmt.Fprintln(o.Warn, "warning: "+p.Warning())
	}
}

// DirWith is Dir with options.
func DirWith(dir string, opt Options) ([]string, error) {
	man, err := output.ReadManifest(dir)
	if os.IsNotExist(err) {
		return runDir(dir, opt)
	}
	if err != nil {
		return nil, err
	}
	rows, err := output.ReadResults(dir)
	if err != nil {
		return nil, err
	}
	if len(rows) == 0 {
		return nil, fmt.Errorf("%s: no results yet", dir)
	}
	out := filepath.Join(dir, PlotsDir)
	if err := ensureDir(out); err != nil {
		return nil, err
	}
	var files []string
	if f, err := overlay(dir, out, rows, opt); err != nil {
		return files, err
	} else {
		files = append(files, f...)
	}
	st := output.Tabulate(output.GroupByPoint(rows))
	for _, x := range figureAxes(man, rows) {
		for mi, m := range st.Metrics {
			if constant(st.Cells[mi]) {
				continue // the same value in every run (a phase that took no time): nothing to see
			}
			if mergePass.MatchString(m) {
				continue // a figure per merge pass: in results.csv and the table, folded out of the figures
			}
			draw := MetricVsParam
			if man.Kind == "compare" {
				draw = MetricVsSetting
			}
			p, err := draw(rows, x, m)
			if err != nil {
				return files, err
			}
			f, err := Save(p, filepath.Join(out, slug(m)+"-vs-"+slug(x)))
			if err != nil {
				return files, err
			}
			files = append(files, f...)
		}
	}
	return files, nil
}

// mergePass matches the key metric of one merge pass of an index build's merge sort
// (ddl0_create_index_merge_pass_3_s): a statement has one per pass, each a figure nobody asked for.
var mergePass = regexp.MustCompile(`_merge_pass_[0-9]+_s$`)

// constant reports whether a metric has one value in every run of every group (or none).
func constant(cells []metrics.Stat) bool {
	first := math.NaN()
	for _, c := range cells {
		if c.N == 0 || math.IsNaN(c.Mean) {
			continue
		}
		if !math.IsNaN(c.Half) && c.Half != 0 {
			return false
		}
		if math.IsNaN(first) {
			first = c.Mean
		} else if c.Mean != first {
			return false
		}
	}
	return true
}

// figureAxes are the parameters Dir draws metrics against: the policy for a compare, else
// each varying parameter but the policy (which makes the lines whenever something else varies).
func figureAxes(man *output.Manifest, rows []output.Row) []string {
	xs := axesOf(rows).varying
	if man.Kind == "compare" || len(xs) == 0 {
		return output.ColumnsOf(rows).Params[:min(1, len(output.ColumnsOf(rows).Params))]
	}
	if len(xs) > 1 {
		var nx []string
		for _, x := range xs {
			if x != "policy" {
				nx = append(nx, x)
			}
		}
		xs = nx
	}
	return xs
}

// Ordered lists the PNG figures of a compare or sweep directory's plots/ by what they tell:
// main holds the throughput and, per statement, its duration and traffic impact (the compare
// table's first rows, in its order); more holds the run metrics, the phases, and any other
// figure in the directory, in that order.
func Ordered(dir string) (main, more []string, err error) {
	man, err := output.ReadManifest(dir)
	if err != nil {
		return nil, nil, err
	}
	rows, err := output.ReadResults(dir)
	if err != nil {
		return nil, nil, err
	}
	out := filepath.Join(dir, PlotsDir)
	have := map[string]bool{}
	for _, f := range Files(out) {
		have[f] = true
	}
	used := map[string]bool{}
	take := func(list *[]string, f string) {
		if have[f] && !used[f] {
			used[f] = true
			*list = append(*list, f)
		}
	}
	take(&main, filepath.Join(out, "throughput.png"))
	take(&main, filepath.Join(out, "latency.png"))
	if len(rows) > 0 {
		st := output.Tabulate(output.GroupByPoint(rows))
		for _, x := range figureAxes(man, rows) {
			for mi, m := range st.Metrics {
				list := &more
				if st.Kinds[mi] == metrics.KindImpact {
					list = &main
				}
				take(list, filepath.Join(out, slug(m)+"-vs-"+slug(x)+".png"))
			}
		}
	}
	for _, f := range Files(out) {
		take(&more, f)
	}
	return main, more, nil
}

// overlay draws throughput.{png,svg} when the directory kept per-run series: one line per
// point, the mean over its seeds, with the DDL intervals of its first seed.
func overlay(dir, out string, rows []output.Row, opt Options) ([]string, error) {
	var traces []Trace
	for _, g := range output.GroupByPoint(rows) {
		var ss []*metrics.Series
		for _, r := range g.Rows {
			s, part, err := output.ReadSeries(output.SeriesPath(dir, r.Point, r.Seed), 0)
			if os.IsNotExist(err) {
				continue
			}
			if err != nil {
				return nil, err
			}
			if part != nil {
				if !opt.Partial {
					return nil, part.Err()
				}
				opt.warn(part)
			}
			ss = append(ss, s)
		}
		if len(ss) == 0 {
			continue
		}
		traces = append(traces, Trace{Label: output.GroupLabel(g), Series: MeanSeries(ss), DDL: g.Rows[0].DDL})
	}
	if len(traces) == 0 || len(traces) > 12 {
		return nil, nil
	}
	title := "throughput"
	if len(rows[0].Params) > 0 && len(traces) > 1 {
		title = "throughput by " + rows[0].Params[0].Path + fmt.Sprintf(" (mean of %d seeds)", len(rows)/len(output.GroupByPoint(rows)))
	}
	p, err := Throughput(title, traces)
	if err != nil {
		return nil, err
	}
	files, err := Save(p, filepath.Join(out, "throughput"))
	if err != nil {
		return files, err
	}
	lat, err := latencyFigure(out, "latency", traces)
	return append(files, lat...), err
}

func runDir(dir string, opt Options) ([]string, error) {
	title := filepath.Base(filepath.Clean(dir))
	rd, err := output.ReadRunDir(dir, opt.Partial)
	if err == nil {
		if rd.Partial != nil {
			opt.warn(rd.Partial)
		}
		return Run(dir, title, rd.Series, rd.DDL)
	}
	if !os.IsNotExist(err) {
		return nil, err
	}
	// No summary.json: a directory of series.csv (and ddl.csv) alone.
	if _, serr := os.Stat(filepath.Join(dir, output.SeriesFile)); serr != nil {
		return nil, &output.ReadError{File: dir, Msg: fmt.Sprintf("neither a sweep/compare directory (no %s) nor a run directory (no %s or %s)", output.ManifestFile, output.SummaryFile, output.SeriesFile)}
	}
	s, part, err := output.ReadSeries(filepath.Join(dir, output.SeriesFile), 0)
	if err != nil {
		return nil, err
	}
	if part != nil {
		if !opt.Partial {
			return nil, part.Err()
		}
		opt.warn(part)
	}
	ddl, err := readDDLCSV(filepath.Join(dir, output.DDLFile))
	if err != nil {
		return nil, err
	}
	return Run(dir, title, s, ddl)
}

// readDDLCSV reads the ddl.csv of a run directory (model/output.WriteDir), for a directory
// without summary.json. It has phase durations only, so the phases (every occurrence, from
// the phases column) are laid end to end from the statement's start.
func readDDLCSV(path string) ([]metrics.DDLResult, error) {
	f, err := os.Open(path)
	if os.IsNotExist(err) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	defer f.Close()
	recs, err := csv.NewReader(f).ReadAll()
	if err != nil {
		return nil, fmt.Errorf("%s: %v", path, err)
	}
	if len(recs) == 0 {
		return nil, nil
	}
	head := recs[0]
	var out []metrics.DDLResult
	for _, rec := range recs[1:] {
		var d metrics.DDLResult
		num := func(s string) float64 { v, _ := strconv.ParseFloat(s, 64); return v }
		t := 0.0
		for i, h := range head {
			if i >= len(rec) {
				break
			}
			v := rec[i]
			switch {
			case h == "op":
				d.Op = v
			case h == "table":
				d.Table = v
			case h == "policy":
				d.Policy = v
			case h == "start_s":
				d.StartS = num(v)
				t = d.StartS
			case h == "end_s":
				d.EndS = num(v)
			case h == "duration_s":
				d.DurationS = num(v)
			case h == "failed":
				d.Failed = v == "true"
			case h == "unfinished":
				d.Unfinished = v == "true"
			case h == "phases":
				for _, f := range strings.Fields(v) {
					name, dur, _ := strings.Cut(f, "=")
					d.Phases = append(d.Phases, metrics.Phase{Name: name, StartS: t, EndS: t + num(dur)})
					t += num(dur)
				}
			}
		}
		out = append(out, d)
	}
	return out, nil
}
