package plot

import (
	"context"
	"image/png"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/ddlsim/ddlsim/internal/output"
	"github.com/ddlsim/ddlsim/internal/sweep"
	"github.com/ddlsim/ddlsim/internal/sweep/sweeptest"
)

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
		dir := sweeptest.Dir(t, kind)
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
	out, _ := sweeptest.Run(context.Background(), sweep.Point{Params: output.Params{{Path: "policy", Value: "fullscan"}}}, 1)
	dir := t.TempDir()
	files, err := Run(dir, "create-index fullscan", out.Series, out.DDL)
	if err != nil || len(files) != 2 {
		t.Fatal(files, err)
	}
	checkPNG(t, files[0])
	// And the same from a run directory on disk.
	rd := t.TempDir()
	if err := output.WriteDir(rd, output.Bundle{Series: out.Series, DDL: out.DDL}); err != nil {
		t.Fatal(err)
	}
	files, err = Dir(rd)
	if err != nil || len(files) != 2 {
		t.Fatal(files, err)
	}
	ddl, err := readDDLCSV(filepath.Join(rd, output.DDLFile))
	if err != nil || len(ddl) != 1 || len(ddl[0].Phases) != 4 || ddl[0].Phases[3].EndS != out.DDL[0].EndS {
		t.Fatalf("ddl.csv read back: %+v %v", ddl, err)
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

// Against policies (categories) a metric is drawn as bars on an axis from zero, not as a line
// between categories on an axis that starts anywhere; the throughput legend names the DDL
// spans.
func TestCategoricalBarsFromZero(t *testing.T) {
	dir := sweeptest.Dir(t, "compare")
	rows, err := output.ReadResults(dir)
	if err != nil {
		t.Fatal(err)
	}
	p, err := MetricVsParam(rows, "policy", "ddl0_create_index_baseline_tps") // ~4100, a narrow range
	if err != nil {
		t.Fatal(err)
	}
	if p.Y.Min != 0 || p.Y.Max < 4100 {
		t.Errorf("y axis [%v, %v], want from 0 past 4100", p.Y.Min, p.Y.Max)
	}
	if !categorical([]string{"fullscan", "lazy"}) || categorical([]string{"1GiB", "2GiB"}) {
		t.Error("categorical")
	}
	out, _ := sweeptest.Run(context.Background(), sweep.Point{Params: output.Params{{Path: "policy", Value: "fullscan"}}}, 1)
	th, err := Throughput("t", []Trace{{Label: "a", Series: out.Series, DDL: out.DDL}, {Label: "b", Series: out.Series, DDL: out.DDL}})
	if err != nil {
		t.Fatal(err)
	}
	svg := filepath.Join(t.TempDir(), "t.svg")
	if err := th.Save(Width, Height, svg); err != nil {
		t.Fatal(err)
	}
	b, _ := os.ReadFile(svg)
	for _, w := range []string{"a DDL", "b DDL"} {
		if !strings.Contains(string(b), w) {
			t.Errorf("legend lacks %q", w)
		}
	}
}
