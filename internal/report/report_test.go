package report

import (
	"context"
	"image/png"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/ddlsim/ddlsim/internal/sweep/sweeptest"
	"github.com/ddlsim/ddlsim/internal/trust"
	"github.com/ddlsim/ddlsim/model/config"
	"github.com/ddlsim/ddlsim/model/metrics"
	"github.com/ddlsim/ddlsim/model/runner"
)

const chromiumPath = "/usr/bin/chromium"

// imgProbe records, once the page has loaded, the naturalWidth of every image: 0 means the
// browser could not decode it.
const imgProbe = `<script>window.addEventListener('load',()=>{document.body.setAttribute('data-img-widths',
[...document.images].map(i=>i.complete?i.naturalWidth:0).join(','))})</script>`

func chromium(t *testing.T, args ...string) []byte {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 90*time.Second)
	defer cancel()
	base := []string{"--headless", "--no-sandbox", "--disable-gpu", "--no-first-run", "--disable-background-networking",
		"--disable-component-update", "--disable-sync", "--disable-dev-shm-usage", "--user-data-dir=" + t.TempDir()}
	out, err := exec.CommandContext(ctx, chromiumPath, append(base, args...)...).Output()
	if err != nil {
		t.Fatalf("chromium %v: %v", args, err)
	}
	return out
}

// checkRenders loads the report in headless Chromium and checks that it shows every figure:
// each <img> decoded (naturalWidth > 0), and a screenshot that is not blank.
func checkRenders(t *testing.T, report string, wantImages int) {
	if _, err := os.Stat(chromiumPath); err != nil {
		t.Skip("no " + chromiumPath + " (apt-get install chromium; .ci/run installs it)")
	}
	html, err := os.ReadFile(report)
	if err != nil {
		t.Fatal(err)
	}
	probe := filepath.Join(t.TempDir(), "probe.html")
	os.WriteFile(probe, []byte(strings.Replace(string(html), "</body>", imgProbe+"</body>", 1)), 0o644)
	dom := chromium(t, "--virtual-time-budget=5000", "--dump-dom", "file://"+probe)
	m := regexp.MustCompile(`data-img-widths="([0-9,]*)"`).FindSubmatch(dom)
	if m == nil {
		t.Fatalf("probe did not run; DOM starts %.300s", dom)
	}
	widths := strings.Split(string(m[1]), ",")
	if len(widths) != wantImages {
		t.Fatalf("page has %d images, want %d", len(widths), wantImages)
	}
	for i, w := range widths {
		if w == "0" || w == "" {
			t.Fatalf("image %d did not load (widths %s)", i, m[1])
		}
	}

	shot := filepath.Join(t.TempDir(), "shot.png")
	chromium(t, "--window-size=1200,2400", "--hide-scrollbars", "--screenshot="+shot, "file://"+report)
	f, err := os.Open(shot)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	img, err := png.Decode(f)
	if err != nil {
		t.Fatal(err)
	}
	// Plot lines are coloured; text and tables are grey. Count strongly coloured pixels.
	colored := 0
	b := img.Bounds()
	for y := b.Min.Y; y < b.Max.Y; y += 2 {
		for x := b.Min.X; x < b.Max.X; x += 2 {
			r, g, bl, _ := img.At(x, y).RGBA()
			hi, lo := max(r, g, bl), min(r, g, bl)
			if hi-lo > 0x4000 {
				colored++
			}
		}
	}
	if colored < 100 {
		t.Fatalf("screenshot shows no figure (%d coloured pixels)", colored)
	}
	if keep := os.Getenv("DDLSIM_KEEP_SCREENSHOT"); keep != "" {
		b, _ := os.ReadFile(shot)
		os.WriteFile(keep, b, 0o644)
	}
}

func TestCompareReportRenders(t *testing.T) {
	dir := sweeptest.Dir(t, "compare")
	out, err := Dir(dir, []string{"ddlsim", "compare", "x.yaml", "--policies", "fullscan,lazy,indexed", "--seeds", "3"})
	if err != nil {
		t.Fatal(err)
	}
	html, _ := os.ReadFile(out)
	for _, want := range []string{"--policies fullscan,lazy,indexed", "mean ± 95% CI", "fullscan", "indexed", "data:image/png;base64,", "ddl0_create_index_duration_s"} {
		if !strings.Contains(string(html), want) {
			t.Errorf("report lacks %q", want)
		}
	}
	if strings.Contains(string(html), "http://") || strings.Contains(string(html), "https://") {
		t.Error("report refers to the network")
	}
	n := strings.Count(string(html), "<img ")
	if n < 2 {
		t.Fatalf("%d images", n)
	}
	checkRenders(t, out, n)
}

func TestSweepReportRenders(t *testing.T) {
	dir := sweeptest.Dir(t, "sweep")
	out, err := Dir(dir, nil)
	if err != nil {
		t.Fatal(err)
	}
	html, _ := os.ReadFile(out)
	if !strings.Contains(string(html), "Points") || !strings.Contains(string(html), "mysql.innodb_buffer_pool_size") {
		t.Error("sweep report lacks its points table")
	}
	checkRenders(t, out, strings.Count(string(html), "<img "))
}

func TestRunReportRenders(t *testing.T) {
	sc, err := config.Load("../../scenarios/sweeps/tiny.yaml")
	if err != nil {
		t.Fatal(err)
	}
	res, err := runner.Run(sc, runner.Options{})
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	out, err := Run(dir, res, []string{"ddlsim", "run", "scenarios/sweeps/tiny.yaml", "--report"})
	if err != nil {
		t.Fatal(err)
	}
	html, _ := os.ReadFile(out)
	for _, want := range []string{"run of tiny-create-index", "Configuration", "innodb_buffer_pool_size", res.ConfigHash,
		"How far to trust it — trust: profile 8c-64g", "ADD INDEX", "MySQL 8.0", "where each comes from", "costs.page_hit"} {
		if !strings.Contains(string(html), want) {
			t.Errorf("run report lacks %q", want)
		}
	}
	checkRenders(t, out, 1)
}

// A run whose scenario gives the server's observed rate shows it against the simulated one
// (the console's warning, in the report); one without it has no such table.
func TestRunReportShowsObservedRate(t *testing.T) {
	sc, err := config.Load("../../scenarios/sweeps/tiny.yaml")
	if err != nil {
		t.Fatal(err)
	}
	res, err := runner.Run(sc, runner.Options{})
	if err != nil {
		t.Fatal(err)
	}
	caption := "against the server&#39;s observed rate"
	out, err := Run(t.TempDir(), res, []string{"ddlsim", "run"})
	if err != nil {
		t.Fatal(err)
	}
	if html, _ := os.ReadFile(out); strings.Contains(string(html), caption) {
		t.Error("a run without observed: has an observed-rate table")
	}
	o := trust.CompareObserved(res.Scenario, &res.Series, res.DDL)
	if o != nil {
		t.Fatal("tiny.yaml gives an observed rate; the test needs one without")
	}
	res.Scenario.Observed.StatementsPerS = 1
	res.Scenario.Observed.Source = "SHOW GLOBAL STATUS, test"
	o = trust.CompareObserved(res.Scenario, &res.Series, res.DDL)
	if o == nil || o.Simulated <= 1.5 {
		t.Fatalf("the run's simulated rate is not far above 1/s: %+v", o)
	}
	res.Scenario.Observed.StatementsPerS = o.Simulated / 3
	out, err = Run(t.TempDir(), res, []string{"ddlsim", "run"})
	if err != nil {
		t.Fatal(err)
	}
	html, _ := os.ReadFile(out)
	for _, want := range []string{caption, "this run", metrics.Plain(o.Simulated/3, 6), metrics.Plain(o.Simulated, 6), ">3</td>", ">false</td>", "SHOW GLOBAL STATUS, test"} {
		if !strings.Contains(string(html), want) {
			t.Errorf("run report lacks %q", want)
		}
	}
}

// The compare report leads with the DDL's duration and traffic impact: those tables and
// figures come first (the throughput figure before all), the run metrics, phases and their
// figures are folded under "More", and no number is in exponent notation.
func TestCompareReportOrder(t *testing.T) {
	dir := sweeptest.Dir(t, "compare")
	out, err := Dir(dir, nil)
	if err != nil {
		t.Fatal(err)
	}
	b, _ := os.ReadFile(out)
	html := string(b)
	impact := strings.Index(html, "duration and traffic impact: mean ± 95% CI")
	more := strings.Index(html, `<details id="more">`)
	runMetrics := strings.Index(html, "run metrics: mean ± 95% CI")
	if impact < 0 || more < 0 || runMetrics < 0 || !(impact < more && more < runMetrics) {
		t.Fatalf("impact table at %d, More at %d, run metrics at %d", impact, more, runMetrics)
	}
	alts := regexp.MustCompile(`<img src="[^"]*" alt="([^"]*)"`).FindAllStringSubmatchIndex(html, -1)
	if len(alts) < 3 {
		t.Fatalf("%d figures", len(alts))
	}
	first := html[alts[0][2]:alts[0][3]]
	if first != "throughput" {
		t.Errorf("first figure %q, want throughput", first)
	}
	impactFigs := 0
	for _, a := range alts {
		name := html[a[2]:a[3]]
		isImpact := strings.HasPrefix(name, "ddl0_create_index_duration_s") || strings.Contains(name, "_tps-vs-") ||
			strings.Contains(name, "_lat_p9") || strings.Contains(name, "below_half")
		switch {
		case a[0] < more && name != "throughput" && !isImpact:
			t.Errorf("figure %s shown before More", name)
		case a[0] > more && isImpact:
			t.Errorf("impact figure %s folded", name)
		case isImpact:
			impactFigs++
		}
	}
	if impactFigs < 7 {
		t.Errorf("%d impact figures shown, want duration and the six impact values", impactFigs)
	}
	if regexp.MustCompile(`<td>[^<]*[0-9]e[-+][0-9]`).MatchString(html) {
		t.Error("a table cell holds exponent notation")
	}
}

// Every file of a compare directory with its figures and report is readable by everyone
// (0644, directories 0755), as a run directory's are.
func TestCompareFilesMode0644(t *testing.T) {
	old := syscall.Umask(0o022)
	defer syscall.Umask(old)
	dir := sweeptest.Dir(t, "compare")
	if _, err := Dir(dir, nil); err != nil {
		t.Fatal(err)
	}
	n := 0
	filepath.Walk(dir, func(p string, fi os.FileInfo, err error) error {
		if err != nil {
			return err
		}
		want := os.FileMode(0o644)
		if fi.IsDir() {
			want = 0o755
		} else {
			n++
		}
		if fi.Mode().Perm() != want {
			t.Errorf("%s: mode %v, want %v", p, fi.Mode().Perm(), want)
		}
		return nil
	})
	if n < 10 {
		t.Fatalf("only %d files", n)
	}
}
