package plot

import (
	"image/png"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/ddlsim/ddlsim/internal/sweep"
	"github.com/ddlsim/ddlsim/internal/sweep/sweeptest"
	"github.com/ddlsim/ddlsim/model/metrics"
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
	out, _ := sweeptest.Run(sweep.Point{Params: []sweep.Param{{Path: "policy", Value: "fullscan"}}}, 1)
	dir := t.TempDir()
	files, err := Run(dir, "create-index fullscan", out.Series, out.DDL)
	if err != nil || len(files) != 2 {
		t.Fatal(files, err)
	}
	checkPNG(t, files[0])
	// And the same from a run directory on disk.
	rd := t.TempDir()
	if err := metrics.WriteDir(rd, metrics.Bundle{Series: out.Series, DDL: out.DDL}); err != nil {
		t.Fatal(err)
	}
	files, err = Dir(rd)
	if err != nil || len(files) != 2 {
		t.Fatal(files, err)
	}
	ddl, err := readDDLCSV(filepath.Join(rd, metrics.DDLFile))
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
