package plot

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"

	"github.com/ddlsim/ddlsim/internal/sweep"
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
	return Save(p, filepath.Join(out, "throughput"))
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
func Dir(dir string) ([]string, error) {
	man, err := sweep.ReadManifest(dir)
	if os.IsNotExist(err) {
		return runDir(dir)
	}
	if err != nil {
		return nil, err
	}
	rows, err := sweep.ReadResults(dir)
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
	if f, err := overlay(dir, out, rows); err != nil {
		return files, err
	} else {
		files = append(files, f...)
	}
	ax := axesOf(rows)
	xs := ax.varying
	if man.Kind == "compare" || len(xs) == 0 {
		xs = sweep.ColumnsOf(rows).Params[:min(1, len(sweep.ColumnsOf(rows).Params))]
	} else if len(xs) > 1 {
		// The policy makes the lines, not an axis, whenever something else varies.
		var nx []string
		for _, x := range xs {
			if x != "policy" {
				nx = append(nx, x)
			}
		}
		xs = nx
	}
	names := sweep.Tabulate(sweep.GroupByPoint(rows)).Metrics
	for _, x := range xs {
		for _, m := range names {
			p, err := MetricVsParam(rows, x, m)
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

// overlay draws throughput.{png,svg} when the directory kept per-run series: one line per
// point, the mean over its seeds, with the DDL intervals of its first seed.
func overlay(dir, out string, rows []sweep.Row) ([]string, error) {
	var traces []Trace
	for _, g := range sweep.GroupByPoint(rows) {
		var ss []*metrics.Series
		for _, r := range g.Rows {
			s, err := sweep.ReadSeriesCSV(sweep.SeriesFile(dir, r.Point, r.Seed))
			if os.IsNotExist(err) {
				continue
			}
			if err != nil {
				return nil, err
			}
			ss = append(ss, s)
		}
		if len(ss) == 0 {
			continue
		}
		traces = append(traces, Trace{Label: sweep.GroupLabel(g), Series: MeanSeries(ss), DDL: g.Rows[0].DDL})
	}
	if len(traces) == 0 || len(traces) > 12 {
		return nil, nil
	}
	title := "throughput"
	if len(rows[0].Params) > 0 && len(traces) > 1 {
		title = "throughput by " + rows[0].Params[0].Path + fmt.Sprintf(" (mean of %d seeds)", len(rows)/len(sweep.GroupByPoint(rows)))
	}
	p, err := Throughput(title, traces)
	if err != nil {
		return nil, err
	}
	return Save(p, filepath.Join(out, "throughput"))
}

// RunSeriesFile and RunDDLFile are where a single run's directory keeps its series and DDL
// results (model/metrics.WriteDir).
var (
	RunSeriesFile = "series.csv"
	RunDDLFile    = "ddl.json"
)

func runDir(dir string) ([]string, error) {
	s, err := sweep.ReadSeriesCSV(filepath.Join(dir, RunSeriesFile))
	if err != nil {
		return nil, fmt.Errorf("%s is neither a sweep/compare directory (%s) nor a run directory: %v", dir, sweep.ManifestFile, err)
	}
	ddl, err := readDDL(filepath.Join(dir, RunDDLFile))
	if err != nil {
		return nil, err
	}
	return Run(dir, filepath.Base(filepath.Clean(dir)), s, ddl)
}

func readDDL(path string) ([]metrics.DDLResult, error) {
	b, err := os.ReadFile(path)
	if os.IsNotExist(err) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	var ddl []metrics.DDLResult
	if err := json.Unmarshal(b, &ddl); err != nil {
		return nil, fmt.Errorf("%s: %v", path, err)
	}
	return ddl, nil
}
