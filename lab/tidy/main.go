// Command tidy turns the raw outputs of one lab plan (lab/run.sh) into tidy CSVs:
//
//	series.csv  one row per (run, second): sysbench's per-second report joined with the
//	            per-second server sampler (SHOW GLOBAL STATUS, INNODB_BUFFER_POOL_STATS) and
//	            the machine's CPU counters
//	runs.csv    one row per run: means over the run, sysbench's own summary and histogram
//	ddl.csv     one row per DDL statement run under load
//
// Column names follow ddlsim's outputs where they overlap (docs/output.md): tps, qps, reads_per_s,
// writes_per_s, other_per_s, iud_per_s, lat_p95_ms, hit_ratio, free_pages, dirty_pages, lru_pages,
// pages_read_per_s, pages_written_per_s, made_young_per_s, free_waits_per_s, checkpoint_age_mb, cpu_util,
// ddl_active; ddl.csv has ddlsim's op, table, start_s, end_s, duration_s, failed, reason,
// unfinished, baseline_tps, min_tps, mean_tps, below_half_s.
//
// Usage: tidy RESULTS_DIR (the directory holding runs/<name>/).
package main

import (
	"bufio"
	"compress/gzip"
	"encoding/csv"
	"errors"
	"fmt"
	"github.com/ddlsim/ddlsim/model/metrics"
	"io"
	"io/fs"
	"math"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strconv"
	"strings"
)

// rampSeconds: the first intervals of a sysbench run (connections opening, prepared
// statements being created) are left out of a DDL's baseline_tps.
const rampSeconds = 5

// clkTck: USER_HZ of /proc/<pid>/stat utime and stime (100 on Linux x86-64).
const clkTck = 100.0

type sample struct {
	t  float64
	kv map[string]float64
}

type osSample struct {
	t          float64
	busy, all  float64 // /proc/stat jiffies summed over cpus
	procJiffie float64 // mariadbd utime+stime
	sbJiffie   float64 // sysbench utime+stime (NaN when not recorded)
}

type interval struct {
	k                        int
	stamp                    float64
	tps, qps, r, w, o, p95ms float64
	errS                     float64
}

type run struct {
	dir     string
	meta    map[string]string
	ivs     []interval
	samples []sample
	os      []osSample
	// sysbench's end-of-run summary (absent when the run was stopped by the lab, as DDL runs are)
	sum  map[string]float64
	hist [][2]float64 // (latency ms, count)
	ddl  *ddlRow
	// origin: the unix time of sysbench's clock 0
	origin float64
}

type ddlRow struct {
	op, table, stmt string
	start, end      float64
	exit            int
	out             string
}

func main() {
	if len(os.Args) != 2 {
		fmt.Fprintln(os.Stderr, "usage: tidy RESULTS_DIR")
		os.Exit(2)
	}
	if err := tidy(os.Args[1]); err != nil {
		fmt.Fprintln(os.Stderr, "tidy:", err)
		os.Exit(1)
	}
}

func tidy(res string) error {
	dirs, err := filepath.Glob(filepath.Join(res, "runs", "*", "meta.env"))
	if err != nil {
		return err
	}
	if len(dirs) == 0 {
		return fmt.Errorf("no runs under %s/runs", res)
	}
	sort.Strings(dirs)
	var runs []*run
	for _, m := range dirs {
		r, err := readRun(filepath.Dir(m))
		if err != nil {
			return fmt.Errorf("%s: %w", filepath.Dir(m), err)
		}
		runs = append(runs, r)
	}
	sort.SliceStable(runs, func(i, j int) bool { return runs[i].meta["sb_start"] < runs[j].meta["sb_start"] })
	cores := coresOf(res)
	if err := writeSeries(filepath.Join(res, "series.csv"), runs, cores); err != nil {
		return err
	}
	if err := writeRuns(filepath.Join(res, "runs.csv"), runs, cores); err != nil {
		return err
	}
	return writeDDL(filepath.Join(res, "ddl.csv"), runs)
}

// coresOf reads "CPU(s):" from machine.txt; 0 when absent (then cpu columns use /proc/stat only).
func coresOf(res string) float64 {
	b, err := os.ReadFile(filepath.Join(res, "machine.txt"))
	if err != nil {
		return 0
	}
	m := regexp.MustCompile(`(?m)^CPU\(s\):\s+(\d+)`).FindSubmatch(b)
	if m == nil {
		return 0
	}
	v, _ := strconv.ParseFloat(string(m[1]), 64)
	return v
}

// readLines reads path, or path.gz when only the compressed raw file is kept.
func readLines(path string) ([]string, error) {
	f, err := os.Open(path)
	var rd io.Reader = f
	if errors.Is(err, fs.ErrNotExist) {
		f, err = os.Open(path + ".gz")
		if err == nil {
			zr, zerr := gzip.NewReader(f)
			if zerr != nil {
				f.Close()
				return nil, zerr
			}
			rd = zr
		}
	}
	if err != nil {
		return nil, err
	}
	defer f.Close()
	var out []string
	sc := bufio.NewScanner(rd)
	sc.Buffer(make([]byte, 1<<20), 1<<24)
	for sc.Scan() {
		out = append(out, sc.Text())
	}
	return out, sc.Err()
}

var ivRe = regexp.MustCompile(`^\[ (\d+)s \] thds: \d+ tps: ([0-9.]+) qps: ([0-9.]+) \(r/w/o: ([0-9.]+)/([0-9.]+)/([0-9.]+)\) lat \(ms,95%\): ([0-9.]+) err/s: ([0-9.]+)`)
var histRe = regexp.MustCompile(`^\s*([0-9.]+) \|[* ]*?\s(\d+)\s*$`)
var sumRe = regexp.MustCompile(`^\s*(transactions|queries|ignored errors|min|avg|max|95th percentile|total time):\s+([0-9.]+)s?(?:\s+\(([0-9.]+) per sec\.\))?`)

func readRun(dir string) (*run, error) {
	r := &run{dir: dir, meta: map[string]string{}, sum: map[string]float64{}}
	lines, err := readLines(filepath.Join(dir, "meta.env"))
	if err != nil {
		return nil, err
	}
	for _, l := range lines {
		if k, v, ok := strings.Cut(l, "="); ok {
			r.meta[k] = v
		}
	}
	// sysbench
	lines, err = readLines(filepath.Join(dir, "sysbench.log"))
	if err != nil {
		return nil, err
	}
	inHist := false
	for _, l := range lines {
		ts, text, ok := strings.Cut(l, "\t")
		if !ok {
			continue
		}
		stamp, err := strconv.ParseFloat(ts, 64)
		if err != nil {
			continue
		}
		if m := ivRe.FindStringSubmatch(text); m != nil {
			iv := interval{stamp: stamp}
			iv.k, _ = strconv.Atoi(m[1])
			f := func(i int) float64 { v, _ := strconv.ParseFloat(m[i], 64); return v }
			iv.tps, iv.qps, iv.r, iv.w, iv.o, iv.p95ms, iv.errS = f(2), f(3), f(4), f(5), f(6), f(7), f(8)
			r.ivs = append(r.ivs, iv)
			continue
		}
		if strings.Contains(text, "Latency histogram") {
			inHist = true
			continue
		}
		if inHist {
			if m := histRe.FindStringSubmatch(text); m != nil {
				v, _ := strconv.ParseFloat(m[1], 64)
				c, _ := strconv.ParseFloat(m[2], 64)
				r.hist = append(r.hist, [2]float64{v, c})
				continue
			}
			if strings.TrimSpace(text) == "" || strings.Contains(text, "value") {
				continue
			}
			inHist = false
		}
		if m := sumRe.FindStringSubmatch(text); m != nil {
			v, _ := strconv.ParseFloat(m[2], 64)
			r.sum[m[1]] = v
			if m[3] != "" {
				ps, _ := strconv.ParseFloat(m[3], 64)
				r.sum[m[1]+"_per_s"] = ps
			}
		}
	}
	if len(r.ivs) == 0 {
		return nil, fmt.Errorf("no sysbench report lines")
	}
	// sysbench's clock 0: the median over intervals of (arrival - k).
	offs := make([]float64, len(r.ivs))
	for i, iv := range r.ivs {
		offs[i] = iv.stamp - float64(iv.k)
	}
	r.origin = quantile(offs, 0.5)

	// sampler
	bpcols := []string{}
	if b, err := readLines(filepath.Join(dir, "os.tsv.bpcols")); err == nil && len(b) > 0 {
		f := strings.Fields(b[0])
		if len(f) > 0 && f[0] == "#BPCOLS" {
			bpcols = f[1:]
		}
	}
	lines, err = readLines(filepath.Join(dir, "samples.tsv"))
	if err != nil {
		return nil, err
	}
	var cur *sample
	for _, l := range lines {
		f := strings.Split(l, "\t")
		if len(f) < 2 {
			continue
		}
		switch f[0] {
		case "T":
			t, err := strconv.ParseFloat(f[1], 64)
			if err != nil {
				continue
			}
			r.samples = append(r.samples, sample{t: t, kv: map[string]float64{}})
			cur = &r.samples[len(r.samples)-1]
		case "BP":
			if cur == nil {
				continue
			}
			for i, c := range bpcols {
				if i+1 < len(f) {
					if v, err := strconv.ParseFloat(f[i+1], 64); err == nil {
						cur.kv["bp."+c] = v
					}
				}
			}
		default:
			if cur == nil || len(f) != 2 {
				continue
			}
			if v, err := strconv.ParseFloat(f[1], 64); err == nil {
				cur.kv[f[0]] = v
			}
		}
	}
	// drop a last sample cut short by the sampler's stop
	if n := len(r.samples); n > 1 && len(r.samples[n-1].kv) < len(r.samples[0].kv)/2 {
		r.samples = r.samples[:n-1]
	}
	// machine CPU
	if lines, err := readLines(filepath.Join(dir, "os.tsv")); err == nil {
		for _, l := range lines {
			f := strings.Split(l, "\t")
			if len(f) != 3 && len(f) != 4 {
				continue
			}
			t, err := strconv.ParseFloat(f[0], 64)
			if err != nil {
				continue
			}
			var s osSample
			s.t = t
			for i, x := range strings.Fields(f[1]) {
				v, _ := strconv.ParseFloat(x, 64)
				if i >= 8 { // guest, guest_nice are already counted in user, nice
					break
				}
				s.all += v
				if i != 3 && i != 4 && i != 7 { // idle, iowait, steal
					s.busy += v
				}
			}
			for _, x := range strings.Fields(f[2]) {
				v, _ := strconv.ParseFloat(x, 64)
				s.procJiffie += v
			}
			s.sbJiffie = math.NaN()
			if len(f) == 4 {
				s.sbJiffie = 0
				for _, x := range strings.Fields(f[3]) {
					v, _ := strconv.ParseFloat(x, 64)
					s.sbJiffie += v
				}
			}
			r.os = append(r.os, s)
		}
	}
	// DDL
	if lines, err := readLines(filepath.Join(dir, "ddl.tsv")); err == nil && len(lines) >= 2 {
		f := strings.Split(lines[1], "\t")
		if len(f) >= 6 {
			d := &ddlRow{op: f[0], table: f[1], stmt: strings.TrimSpace(f[5])}
			d.start, _ = strconv.ParseFloat(f[2], 64)
			d.end, _ = strconv.ParseFloat(f[3], 64)
			d.exit, _ = strconv.Atoi(f[4])
			if b, err := readLines(filepath.Join(dir, "ddl.out")); err == nil {
				d.out = strings.TrimSpace(strings.Join(b, "\n"))
			}
			r.ddl = d
		}
	}
	return r, nil
}

// counter returns the value of a sampler variable at time t by linear interpolation between
// the samples around t (NaN outside the sampled span).
func (r *run) counter(name string, t float64) float64 {
	s := r.samples
	i := sort.Search(len(s), func(i int) bool { return s[i].t >= t })
	if i == len(s) || (i == 0 && s[0].t > t) {
		return math.NaN()
	}
	b, okb := s[i].kv[name]
	if !okb {
		return math.NaN()
	}
	if s[i].t == t || i == 0 {
		return b
	}
	a, oka := s[i-1].kv[name]
	if !oka {
		return math.NaN()
	}
	w := (t - s[i-1].t) / (s[i].t - s[i-1].t)
	return a + w*(b-a)
}

func (r *run) rate(name string, t0, t1 float64) float64 {
	return (r.counter(name, t1) - r.counter(name, t0)) / (t1 - t0)
}

func (r *run) osAt(t float64) (busy, all, proc, sb float64) {
	s := r.os
	i := sort.Search(len(s), func(i int) bool { return s[i].t >= t })
	if i == len(s) || i == 0 {
		return math.NaN(), math.NaN(), math.NaN(), math.NaN()
	}
	w := (t - s[i-1].t) / (s[i].t - s[i-1].t)
	lerp := func(a, b float64) float64 { return a + w*(b-a) }
	// sysbench's counter starts at 0 before its process exists: only between two samples that
	// both saw it
	sbv := math.NaN()
	if s[i-1].sbJiffie > 0 && s[i].sbJiffie > 0 {
		sbv = lerp(s[i-1].sbJiffie, s[i].sbJiffie)
	}
	return lerp(s[i-1].busy, s[i].busy), lerp(s[i-1].all, s[i].all), lerp(s[i-1].procJiffie, s[i].procJiffie), sbv
}

var seriesCols = []string{
	"plan", "run", "kind", "role", "op", "pool_bytes", "data_bytes", "threads", "time_s",
	"tps", "qps", "reads_per_s", "writes_per_s", "other_per_s", "iud_per_s", "commits_per_s", "lat_p95_ms", "errors_per_s",
	"hit_ratio", "read_requests_per_s", "misses_per_s", "pages_read_per_s", "read_ahead_per_s", "pages_written_per_s",
	"dblwr_pages_written_per_s", "data_fsyncs_per_s", "log_writes_per_s", "redo_mb_per_s",
	"free_pages", "dirty_pages", "lru_pages", "old_lru_pages", "made_young_per_s", "not_made_young_per_s",
	"free_waits_per_s", "checkpoint_age_mb", "threads_running", "cpu_util", "mysqld_cpu_util",
	"sysbench_cpu_util", "other_cpu_util", "ddl_active",
}

// point computes one series row's derived values for the interval (t0, t1] of run r.
func (r *run) point(t0, t1, cores float64) map[string]float64 {
	p := map[string]float64{}
	req := r.counter("Innodb_buffer_pool_read_requests", t1) - r.counter("Innodb_buffer_pool_read_requests", t0)
	miss := r.counter("Innodb_buffer_pool_reads", t1) - r.counter("Innodb_buffer_pool_reads", t0)
	dt := t1 - t0
	p["read_requests_per_s"] = req / dt
	p["misses_per_s"] = miss / dt
	p["hit_ratio"] = math.NaN()
	if req > 0 {
		p["hit_ratio"] = 1 - miss/req
	}
	iud := 0.0
	for _, c := range []string{"Com_insert", "Com_update", "Com_delete"} {
		iud += r.rate(c, t0, t1)
	}
	p["iud_per_s"] = iud
	p["commits_per_s"] = r.rate("Com_commit", t0, t1)
	p["pages_read_per_s"] = r.rate("Innodb_pages_read", t0, t1)
	p["read_ahead_per_s"] = r.rate("Innodb_buffer_pool_read_ahead", t0, t1)
	p["pages_written_per_s"] = r.rate("Innodb_pages_written", t0, t1)
	p["dblwr_pages_written_per_s"] = r.rate("Innodb_dblwr_pages_written", t0, t1)
	p["data_fsyncs_per_s"] = r.rate("Innodb_data_fsyncs", t0, t1)
	p["log_writes_per_s"] = r.rate("Innodb_log_writes", t0, t1)
	p["redo_mb_per_s"] = r.rate("Innodb_lsn_current", t0, t1) / (1 << 20)
	p["free_pages"] = r.counter("Innodb_buffer_pool_pages_free", t1)
	p["dirty_pages"] = r.counter("Innodb_buffer_pool_pages_dirty", t1)
	p["lru_pages"] = r.counter("bp.DATABASE_PAGES", t1)
	p["old_lru_pages"] = r.counter("bp.OLD_DATABASE_PAGES", t1)
	p["made_young_per_s"] = r.rate("bp.PAGES_MADE_YOUNG", t0, t1)
	p["not_made_young_per_s"] = r.rate("bp.PAGES_NOT_MADE_YOUNG", t0, t1)
	p["free_waits_per_s"] = r.rate("Innodb_buffer_pool_wait_free", t0, t1)
	p["checkpoint_age_mb"] = r.counter("Innodb_checkpoint_age", t1) / (1 << 20)
	p["threads_running"] = r.counter("Threads_running", t1)
	b0, a0, pr0, sb0 := r.osAt(t0)
	b1, a1, pr1, sb1 := r.osAt(t1)
	p["cpu_util"] = (b1 - b0) / (a1 - a0)
	p["mysqld_cpu_util"] = math.NaN()
	p["sysbench_cpu_util"] = math.NaN()
	p["other_cpu_util"] = math.NaN()
	if cores > 0 {
		p["mysqld_cpu_util"] = (pr1 - pr0) / clkTck / (cores * dt)
		p["sysbench_cpu_util"] = (sb1 - sb0) / clkTck / (cores * dt)
		p["other_cpu_util"] = p["cpu_util"] - p["mysqld_cpu_util"] - p["sysbench_cpu_util"]
	}
	return p
}

func (r *run) ivBounds(iv interval) (float64, float64) {
	t1 := r.origin + float64(iv.k)
	return t1 - 1, t1
}

func writeSeries(path string, runs []*run, cores float64) error {
	var rows [][]string
	for _, r := range runs {
		for _, iv := range r.ivs {
			t0, t1 := r.ivBounds(iv)
			p := r.point(t0, t1, cores)
			p["time_s"] = float64(iv.k)
			p["tps"], p["qps"], p["reads_per_s"], p["writes_per_s"], p["other_per_s"] = iv.tps, iv.qps, iv.r, iv.w, iv.o
			p["lat_p95_ms"], p["errors_per_s"] = iv.p95ms, iv.errS
			p["ddl_active"] = 0
			if r.ddl != nil && r.ddl.start <= t1 && t1 < r.ddl.end {
				p["ddl_active"] = 1
			}
			rows = append(rows, r.row(seriesCols, p))
		}
	}
	return writeCSV(path, seriesCols, rows)
}

// row fills the identifying columns from the run's meta and the rest from p.
func (r *run) row(cols []string, p map[string]float64) []string {
	out := make([]string, len(cols))
	for i, c := range cols {
		switch c {
		case "plan", "run", "kind", "role", "op", "pool_bytes", "data_bytes", "threads", "tables",
			"rows_per_table":
			out[i] = r.meta[c]
		case "table":
			out[i] = r.meta["ddl_table"]
		default:
			v, ok := p[c]
			if !ok {
				v = math.NaN()
			}
			out[i] = fmtF(v)
		}
	}
	return out
}

var runCols = []string{
	"plan", "run", "kind", "role", "op", "pool_bytes", "tables", "rows_per_table", "data_bytes", "threads",
	"seconds", "tps_mean", "tps_min", "tps_p50", "tps_cv", "qps_mean", "iud_per_s_mean", "errors_per_s_mean",
	"sb_tps", "sb_qps", "lat_avg_ms", "lat_p50_ms", "lat_p95_ms", "lat_p99_ms", "lat_max_ms",
	"hit_ratio", "read_requests_per_s_mean", "misses_per_s_mean", "pages_read_per_s_mean", "pages_written_per_s_mean",
	"data_fsyncs_per_s_mean", "redo_mb_per_s_mean", "dirty_pages_mean", "free_pages_mean", "lru_pages_mean",
	"made_young_per_s_mean", "free_waits_per_s_mean", "checkpoint_age_mb_mean", "cpu_util_mean", "mysqld_cpu_util_mean",
	"sysbench_cpu_util_mean", "other_cpu_util_mean",
}

func writeRuns(path string, runs []*run, cores float64) error {
	var rows [][]string
	for _, r := range runs {
		p := map[string]float64{}
		var tps []float64
		var qps, errs float64
		for _, iv := range r.ivs {
			tps = append(tps, iv.tps)
			qps += iv.qps
			errs += iv.errS
		}
		n := float64(len(r.ivs))
		p["seconds"] = n
		p["tps_mean"] = mean(tps)
		p["tps_min"] = minOf(tps)
		p["tps_p50"] = quantile(tps, 0.5)
		p["tps_cv"] = stddev(tps) / mean(tps)
		p["qps_mean"] = qps / n
		p["errors_per_s_mean"] = errs / n
		// sysbench's own summary and histogram: whole-run latency quantiles
		if v, ok := r.sum["transactions_per_s"]; ok {
			p["sb_tps"] = v
			p["sb_qps"] = r.sum["queries_per_s"]
			p["lat_avg_ms"] = r.sum["avg"]
			p["lat_p95_ms"] = r.sum["95th percentile"]
			p["lat_max_ms"] = r.sum["max"]
			p["lat_p50_ms"] = histQuantile(r.hist, 0.5)
			p["lat_p99_ms"] = histQuantile(r.hist, 0.99)
		}
		// whole-run counters: from sysbench's clock 0 to the end of its last interval
		t0 := r.origin
		t1 := r.origin + float64(r.ivs[len(r.ivs)-1].k)
		whole := r.point(t0, t1, cores)
		p["hit_ratio"] = whole["hit_ratio"]
		for _, c := range []string{"iud_per_s", "read_requests_per_s", "misses_per_s", "pages_read_per_s", "pages_written_per_s",
			"data_fsyncs_per_s", "redo_mb_per_s", "made_young_per_s", "free_waits_per_s", "cpu_util", "mysqld_cpu_util"} {
			p[c+"_mean"] = whole[c]
		}
		// gauges, and sysbench's CPU (whose counter exists only while its process does): mean of
		// the per-second values that have one
		for _, c := range []string{"dirty_pages", "free_pages", "lru_pages", "checkpoint_age_mb",
			"sysbench_cpu_util", "other_cpu_util"} {
			var vs []float64
			for _, iv := range r.ivs {
				_, e := r.ivBounds(iv)
				if v := r.point(e-1, e, cores)[c]; !math.IsNaN(v) {
					vs = append(vs, v)
				}
			}
			p[c+"_mean"] = mean(vs)
		}
		rows = append(rows, r.row(runCols, p))
	}
	return writeCSV(path, runCols, rows)
}

var ddlCols = []string{
	"plan", "run", "role", "op", "table", "pool_bytes", "data_bytes", "threads",
	"start_s", "end_s", "duration_s", "failed", "reason", "unfinished",
	"baseline_tps", "min_tps", "mean_tps", "below_half_s", "after_tps",
	"baseline_lat_p95_ms", "max_lat_p95_ms", "hit_ratio_before", "hit_ratio_during",
	"pages_read_during", "pages_written_during", "dirty_pages_at_start", "statement",
}

func writeDDL(path string, runs []*run) error {
	var rows [][]string
	for _, r := range runs {
		d := r.ddl
		if d == nil {
			continue
		}
		p := map[string]float64{}
		s, e := d.start-r.origin, d.end-r.origin
		p["start_s"], p["end_s"], p["duration_s"] = s, e, d.end-d.start
		var before, during, after, latBefore, latDuring []float64
		below := 0.0
		for _, iv := range r.ivs {
			t1 := float64(iv.k)
			t0 := t1 - 1
			switch {
			case t1 <= s && iv.k > rampSeconds:
				before = append(before, iv.tps)
				latBefore = append(latBefore, iv.p95ms)
			case t0 < e && t1 > s:
				during = append(during, iv.tps)
				latDuring = append(latDuring, iv.p95ms)
			case t0 >= e:
				after = append(after, iv.tps)
			}
		}
		p["baseline_tps"] = mean(before)
		p["min_tps"] = minOf(during)
		p["mean_tps"] = mean(during)
		for _, v := range during {
			if v < p["baseline_tps"]/2 {
				below++
			}
		}
		p["below_half_s"] = below
		p["after_tps"] = mean(after)
		p["baseline_lat_p95_ms"] = mean(latBefore)
		p["max_lat_p95_ms"] = maxOf(latDuring)
		pb := r.point(r.origin+rampSeconds, d.start, 0)
		pd := r.point(d.start, d.end, 0)
		p["hit_ratio_before"] = pb["hit_ratio"]
		p["hit_ratio_during"] = pd["hit_ratio"]
		p["pages_read_during"] = r.counter("Innodb_pages_read", d.end) - r.counter("Innodb_pages_read", d.start)
		p["pages_written_during"] = r.counter("Innodb_pages_written", d.end) - r.counter("Innodb_pages_written", d.start)
		p["dirty_pages_at_start"] = r.counter("Innodb_buffer_pool_pages_dirty", d.start)
		row := r.row(ddlCols, p)
		for i, c := range ddlCols {
			switch c {
			case "failed":
				row[i] = strconv.FormatBool(d.exit != 0)
			case "unfinished":
				row[i] = strconv.FormatBool(d.exit == 124)
			case "reason":
				if d.exit != 0 {
					row[i] = firstLine(d.out)
				}
			case "op":
				row[i] = d.op
			case "table":
				row[i] = d.table
			case "statement":
				row[i] = d.stmt
			}
		}
		rows = append(rows, row)
	}
	return writeCSV(path, ddlCols, rows)
}

func firstLine(s string) string {
	l, _, _ := strings.Cut(s, "\n")
	return l
}

func writeCSV(path string, cols []string, rows [][]string) error {
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	w := csv.NewWriter(f)
	if err := w.Write(cols); err != nil {
		f.Close()
		return err
	}
	if err := w.WriteAll(rows); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}

// fmtF: whole numbers as they are, other values rounded to 6 significant digits (what the
// counters and clocks resolve), written in ddlsim's one number format (metrics.FormatFloat:
// plain notation, NaN as empty, +Inf/-Inf).
func fmtF(v float64) string {
	if math.IsNaN(v) || math.IsInf(v, 0) || v == math.Trunc(v) && math.Abs(v) < 1e15 {
		return metrics.FormatFloat(v)
	}
	r, _ := strconv.ParseFloat(strconv.FormatFloat(v, 'g', 6, 64), 64)
	return metrics.FormatFloat(r)
}

func mean(v []float64) float64 {
	if len(v) == 0 {
		return math.NaN()
	}
	s := 0.0
	for _, x := range v {
		s += x
	}
	return s / float64(len(v))
}

func stddev(v []float64) float64 {
	if len(v) < 2 {
		return math.NaN()
	}
	m := mean(v)
	s := 0.0
	for _, x := range v {
		s += (x - m) * (x - m)
	}
	return math.Sqrt(s / float64(len(v)-1))
}

func minOf(v []float64) float64 {
	if len(v) == 0 {
		return math.NaN()
	}
	m := v[0]
	for _, x := range v {
		m = math.Min(m, x)
	}
	return m
}

func maxOf(v []float64) float64 {
	if len(v) == 0 {
		return math.NaN()
	}
	m := v[0]
	for _, x := range v {
		m = math.Max(m, x)
	}
	return m
}

// quantile: the empirical q-quantile (lower value at the rank ceil(q*n)).
func quantile(v []float64, q float64) float64 {
	if len(v) == 0 {
		return math.NaN()
	}
	s := append([]float64(nil), v...)
	sort.Float64s(s)
	i := int(math.Ceil(q*float64(len(s)))) - 1
	if i < 0 {
		i = 0
	}
	return s[i]
}

// histQuantile: the q-quantile of sysbench's latency histogram (the bucket value at which
// the cumulative count first reaches q of the total), as sysbench computes its percentile.
func histQuantile(h [][2]float64, q float64) float64 {
	tot := 0.0
	for _, b := range h {
		tot += b[1]
	}
	if tot == 0 {
		return math.NaN()
	}
	c := 0.0
	for _, b := range h {
		c += b[1]
		if c >= q*tot {
			return b[0]
		}
	}
	return h[len(h)-1][0]
}
