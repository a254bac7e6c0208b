package validate

import (
	"math"
	"os"
	"strings"
	"testing"

	"github.com/ddlsim/ddlsim/model/metrics"
	"github.com/ddlsim/ddlsim/model/runner"
)

const root = "../.."

// docs/validation.md's marked tables are exactly what the committed results render to: edit
// the results (ddlsim validate --run) or the rendering, and the doc must be regenerated
// (ddlsim validate), never edited by hand.
func TestDocTablesAreTheResults(t *testing.T) {
	res, err := ReadResults(root + "/docs/validation/results.json")
	if err != nil {
		t.Fatal(err)
	}
	doc, err := os.ReadFile(root + "/docs/validation.md")
	if err != nil {
		t.Fatal(err)
	}
	want := Render(res)
	have := Blocks(string(doc))
	for k, w := range want {
		h, ok := have[k]
		if !ok {
			t.Errorf("docs/validation.md has no <!-- validate %s --> block", k)
			continue
		}
		if h != w {
			t.Errorf("docs/validation.md block %s is not the results' rendering (run: go run ./cmd/ddlsim validate):\n--- doc\n%s--- results\n%s", k, h, w)
		}
	}
	for k := range have {
		if _, ok := want[k]; !ok {
			t.Errorf("docs/validation.md block %s has nothing in the results", k)
		}
	}
	if out, err := UpdateDoc(string(doc), want); err != nil || out != string(doc) {
		t.Errorf("UpdateDoc changes the doc (err %v)", err)
	}
	// Every ratio, mean and CI recorded is what the per-seed values give.
	for _, r := range res.Rows {
		c := r
		c.summarize()
		if !same(c.Mean, r.Mean) || !same(c.Half, r.Half) || !same(c.Ratio, r.Ratio) {
			t.Errorf("%s [%s] %s: recorded mean/half/ratio %v/%v/%v, the seeds give %v/%v/%v",
				r.Annotation, r.Point, r.Stat, r.Mean, r.Half, r.Ratio, c.Mean, c.Half, c.Ratio)
		}
	}
}

func same(a, b Float) bool {
	return a == b || (math.IsNaN(float64(a)) && math.IsNaN(float64(b)))
}

// The committed results are the results of the validation files as they are now: a measured
// value, a source, a role or a point changed since, and the results must be regenerated. (The
// simulated values are checked by TestValidateReproduces, behind the validation tag.)
func TestResultsAreOfTheValidationFiles(t *testing.T) {
	res, err := ReadResults(root + "/docs/validation/results.json")
	if err != nil {
		t.Fatal(err)
	}
	files, err := Find(root + "/docs/validation")
	if err != nil {
		t.Fatal(err)
	}
	if len(files) < 5 {
		t.Fatalf("only %d validation files", len(files))
	}
	stale, err := Stale(res, files, root)
	if err != nil {
		t.Fatal(err)
	}
	for _, s := range stale {
		t.Error(s)
	}
	// Every role the rules allow appears, and every fit names what was fitted.
	roles := map[string]bool{}
	for _, r := range res.Rows {
		roles[r.Role] = true
		if r.Role == "fit" && r.Fits == "" {
			t.Errorf("%s [%s] %s: a fit without the constants fitted", r.Annotation, r.Point, r.Stat)
		}
		if strings.HasPrefix(r.File, "scenarios/") == false {
			t.Errorf("%s: scenario path %q not relative to the repository", r.Annotation, r.File)
		}
	}
	for _, role := range []string{"fit", "predict", "check"} {
		if !roles[role] {
			t.Errorf("no %s value in the results", role)
		}
	}
}

func TestUpdateDocMarkers(t *testing.T) {
	doc := "intro\n<!-- validate table=a -->\nold\n<!-- /validate -->\nmiddle\n<!-- validate constants=p -->\n<!-- /validate -->\nend\n"
	out, err := UpdateDoc(doc, map[string]string{"table=a": "| x |\n", "constants=p": "c\n"})
	if err != nil {
		t.Fatal(err)
	}
	want := "intro\n<!-- validate table=a -->\n| x |\n<!-- /validate -->\nmiddle\n<!-- validate constants=p -->\nc\n<!-- /validate -->\nend\n"
	if out != want {
		t.Errorf("got\n%s\nwant\n%s", out, want)
	}
	if _, err := UpdateDoc(doc, map[string]string{"table=a": "x\n"}); err == nil || !strings.Contains(err.Error(), "constants=p") {
		t.Errorf("a marker without results: err %v", err)
	}
	if _, err := UpdateDoc(doc, map[string]string{"table=a": "x\n", "constants=p": "c\n", "table=b": "y\n"}); err == nil || !strings.Contains(err.Error(), "table=b") {
		t.Errorf("results without a marker: err %v", err)
	}
}

func TestStats(t *testing.T) {
	res := &runner.Result{
		Summary: metrics.Summary{{Name: "tps_mean", Value: 100}},
		DDL: []metrics.DDLResult{
			{Op: "drop_table", DurationS: 1, BaselineTPS: 100, MeanTPS: 50},
			{Op: "drop_table", DurationS: 3, BaselineTPS: 200, MeanTPS: 200},
			{Op: "drop_table", DurationS: 9, Unfinished: true, BaselineTPS: 100, MeanTPS: 25},
		},
		Series: metrics.Series{Columns: []string{"time_s", "tps", "pages_read_per_s", "server_cpu_util"},
			Rows: [][]float64{{1, 100, 300, 0.5}, {2, 300, 500, 0.3}}},
	}
	st := Stats(res, 2)
	for k, want := range map[string]float64{
		"tps_mean": 100, "ddl.duration_s": 2, "ddl.total_duration_s": 13, "ddl.tps_ratio": (0.5 + 1 + 0.25) / 3,
		"ddl.mean_tps": 275.0 / 3, "ddl0_drop_table_duration_s": 1, "mean.pages_read_per_s": 400,
		"per_txn.pages_read_per_s": 2, "cpu_us_per_txn.server_cpu_util": 0.4 * 2 * 1e6 / 200,
	} {
		if got, ok := st[k]; !ok || math.Abs(got-want) > 1e-9 {
			t.Errorf("%s = %v (present %v), want %v", k, got, ok, want)
		}
	}
	if v := st["ddl2_drop_table_duration_s"]; !math.IsNaN(v) {
		t.Errorf("an unfinished statement's duration = %v, want NaN", v)
	}
}

func TestFormatting(t *testing.T) {
	for _, c := range []struct {
		v    float64
		d    int
		want string
	}{{1234.5, 1, "1234.5"}, {42300, 0, "42,300"}, {0.95308, -1, "0.95308"}, {-12345.6, 1, "-12,345.6"}, {56, -1, "56"}} {
		if got := fmtNum(c.v, c.d); got != c.want {
			t.Errorf("fmtNum(%v, %d) = %q, want %q", c.v, c.d, got, c.want)
		}
	}
	m := 0.95308
	r := Row{Measured: &m, Sim: []Float{0.94, 0.95, 0.96}}
	r.summarize()
	if got := simText(r); got != "0.95000 ± 0.02484 (3 seeds)" {
		t.Errorf("simText = %q", got)
	}
	if got := ratioText(r); got != "1.00" {
		t.Errorf("ratioText = %q", got)
	}
	var f Float
	if err := f.UnmarshalJSON([]byte("null")); err != nil || !math.IsNaN(float64(f)) {
		t.Errorf("null reads as %v, %v", f, err)
	}
	if b, _ := Float(math.NaN()).MarshalJSON(); string(b) != "null" {
		t.Errorf("NaN writes as %s", b)
	}
}
