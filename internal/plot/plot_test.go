package plot

import (
	"context"
	"image/png"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/ddlsim/ddlsim/internal/sweep"
	"github.com/ddlsim/ddlsim/model/metrics"
)

// FakeRun produces a plausible run without the simulator: a throughput series with a dip while
// a DDL runs, longer under "fullscan"; pool size (when swept) scales the dip. Shared with the
// report tests through FakeCompareDir / FakeSweepDir.
func FakeRun(pt sweep.Point, seed uint64) (*sweep.Outcome, error) {
	dur := 5.0
	switch v, _ := pt.Get("policy"); v {
	case "fullscan":
		dur = 25
	case "lazy":
		dur = 15
	}
	if v, ok := pt.Get("mysql.innodb_buffer_pool_size"); ok {
		if x, ok := numeric(v); ok {
			dur *= x / (1 << 30)
		}
	}
	noise := float64(seed%5) * 0.3
	dur += noise
	start := 20.0
	s := &metrics.Series{Columns: []string{"time_s", "tps"}}
	for t := 1.0; t <= 60; t++ {
		v := 4000 + 50*float64((int(t)*7+int(seed))%5)
		if t > start && t <= start+dur {
			v *= 0.3
		}
		s.Rows = append(s.Rows, []float64{t, v})
	}
	d := metrics.DDLResult{Op: "create_index", Table: "big", StartS: start, EndS: start + dur, DurationS: dur,
		Phases: []metrics.Phase{{Name: "scan", StartS: start, EndS: start + dur*0.3}, {Name: "sort", StartS: start + dur*0.3, EndS: start + dur*0.5},
			{Name: "load", StartS: start + dur*0.5, EndS: start + dur*0.7}, {Name: "observer_flush", StartS: start + dur*0.7, EndS: start + dur}}}
	return &sweep.Outcome{ConfigHash: "h", Series: s, DDL: []metrics.DDLResult{d},
		Summary: metrics.Summary{{Name: "tps_mean", Value: 3800 - 20*dur}, {Name: "ddl_dip_s", Value: dur}}}, nil
}

// FakeDir writes a compare (kind "compare", policies × 3 seeds, series kept) or a sweep (policy ×
// pool size) results directory made by FakeRun.
func FakeDir(t testing.TB, kind string) string {
	dir := t.TempDir()
	var pts []sweep.Point
	pols := []string{"fullscan", "lazy", "indexed"}
	for i, p := range pols {
		if kind == "compare" {
			pts = append(pts, sweep.Point{ID: i, Params: []sweep.Param{{Path: "policy", Value: p}}})
			continue
		}
		for _, sz := range []string{"1GiB", "2GiB", "4GiB"} {
			pts = append(pts, sweep.Point{ID: len(pts), Params: []sweep.Param{{Path: "policy", Value: p}, {Path: "mysql.innodb_buffer_pool_size", Value: sz}}})
		}
	}
	plan := sweep.NewPlan(kind, "fake.yaml", "fake", pts, []uint64{1, 2, 3}, "base: fake.yaml\n")
	if _, err := sweep.Execute(context.Background(), plan, sweep.Options{Dir: dir, Run: FakeRun, SaveSeries: kind == "compare"}); err != nil {
		t.Fatal(err)
	}
	return dir
}

func checkPNG(t *testing.T, path string) {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	img, err := png.Decode(f)
	if err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	if b := img.Bounds(); b.Dx() < 300 || b.Dy() < 150 {
		t.Fatalf("%s: %v", path, b)
	}
}

func TestDirCompareAndSweep(t *testing.T) {
	for _, kind := range []string{"compare", "sweep"} {
		dir := FakeDir(t, kind)
		files, err := Dir(dir)
		if err != nil {
			t.Fatal(err)
		}
		var names []string
		for _, f := range files {
			names = append(names, filepath.Base(f))
			if strings.HasSuffix(f, ".png") {
				checkPNG(t, f)
			} else if b, _ := os.ReadFile(f); !strings.Contains(string(b), "<svg") {
				t.Fatalf("%s is not SVG", f)
			}
		}
		all := strings.Join(names, " ")
		want := map[string][]string{
			"compare": {"throughput.png", "throughput.svg", "ddl0_create_index_duration_s-vs-policy.png"},
			"sweep":   {"tps_mean-vs-mysql.innodb_buffer_pool_size.png", "ddl_dip_s-vs-mysql.innodb_buffer_pool_size.svg"},
		}[kind]
		for _, w := range want {
			if !strings.Contains(all, w) {
				t.Errorf("%s: no %s in %s", kind, w, all)
			}
		}
		if kind == "sweep" && strings.Contains(all, "throughput") {
			t.Errorf("sweep without series drew a throughput plot")
		}
		if keep := os.Getenv("DDLSIM_KEEP_PLOTS"); keep != "" {
			// Look at the figures: DDLSIM_KEEP_PLOTS=/tmp/plots go test ./internal/plot
			os.MkdirAll(keep, 0o755)
			for _, f := range files {
				b, _ := os.ReadFile(f)
				os.WriteFile(filepath.Join(keep, kind+"-"+filepath.Base(f)), b, 0o644)
			}
		}
	}
}

func TestRunPlot(t *testing.T) {
	out, _ := FakeRun(sweep.Point{Params: []sweep.Param{{Path: "policy", Value: "fullscan"}}}, 1)
	dir := t.TempDir()
	files, err := Run(dir, "create-index fullscan", out.Series, out.DDL)
	if err != nil || len(files) != 2 {
		t.Fatal(files, err)
	}
	checkPNG(t, files[0])
	// And the same from a run directory on disk.
	rd := t.TempDir()
	if err := sweep.WriteSeriesCSV(filepath.Join(rd, RunSeriesFile), out.Series); err != nil {
		t.Fatal(err)
	}
	files, err = Dir(rd)
	if err != nil || len(files) != 2 {
		t.Fatal(files, err)
	}
}

func TestNumeric(t *testing.T) {
	for v, want := range map[string]float64{"16": 16, "8GiB": 8 << 30, "100ms": 0.1, "1.5e3": 1500} {
		if got, ok := numeric(v); !ok || got != want {
			t.Errorf("%s: %v %v", v, got, ok)
		}
	}
	if _, ok := numeric("fullscan"); ok {
		t.Error("fullscan is numeric")
	}
}
