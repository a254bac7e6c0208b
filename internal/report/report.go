// Package report writes one self-contained HTML page for a run, a compare or a sweep: the
// summary tables, the figures (PNG embedded as data: URIs, so the page can be mailed or
// attached to an issue on its own), and the exact command line and configuration that produced
// it. Nothing is fetched when the page is opened: no scripts, fonts or stylesheets from
// elsewhere.
package report

import (
	"bytes"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"html/template"
	"os"
	"path/filepath"
	"strings"

	"github.com/ddlsim/ddlsim/internal/output"
	"github.com/ddlsim/ddlsim/internal/plot"
	"github.com/ddlsim/ddlsim/internal/trust"
	"github.com/ddlsim/ddlsim/model/config"
	"github.com/ddlsim/ddlsim/model/metrics"
	"github.com/ddlsim/ddlsim/model/runner"
)

// FileName is the report's name inside a results directory.
const FileName = "report.html"

// Page is the content of a report. It is laid out by what matters: the tables and figures of
// the DDL's duration and traffic impact first, everything else folded under "More"
// (<details>), then the command line and the configuration (folded).
type Page struct {
	Title   string
	Kind    string // run | compare | sweep
	Command []string
	Version string
	Tables  []Table
	Images  []string  // PNG files to embed, in order
	More    []string  // PNG files to embed folded, after the folded tables
	Config  []Section // configuration texts (scenario, spec)
}

// Table is a captioned table of strings; a Folded one goes under "More".
type Table struct {
	Caption string
	Header  []string
	Rows    [][]string
	Folded  bool
}

// Section is a titled block of preformatted text.
type Section struct {
	Title, Text string
}

type image struct {
	Name string
	URI  template.URL
}

var page = template.Must(template.New("report").Parse(`<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8">
<title>{{.Title}}</title>
<style>
body{font-family:system-ui,sans-serif;max-width:1100px;margin:2em auto;padding:0 1em;color:#222}
h1{font-size:1.5em} h2{font-size:1.2em;margin-top:2em;border-bottom:1px solid #ccc}
table{border-collapse:collapse;margin:1em 0;font-size:.9em}
th,td{border:1px solid #ddd;padding:.25em .6em;text-align:right}
th:first-child,td:first-child{text-align:left}
th{background:#f3f3f3}
pre{background:#f6f6f6;padding:.8em;overflow-x:auto;font-size:.85em}
figure{margin:1em 0} figure img{max-width:100%;border:1px solid #eee}
figcaption{font-size:.85em;color:#555}
details{margin:1em 0} summary{cursor:pointer;font-weight:600}
</style></head><body>
<h1>{{.Title}}</h1>
<p>ddlsim {{.Kind}} report · ddlsim {{.Version}}</p>
{{range .Tables}}{{if not .Folded}}<h2>{{.Caption}}</h2>
{{template "table" .}}{{end}}{{end}}{{if .Images}}<h2>Figures</h2>
{{range .Images}}{{template "figure" .}}{{end}}{{end}}{{if or .FoldedTables .MoreImages}}<h2>More</h2>
<details id="more"><summary>{{.MoreSummary}}</summary>
{{range .Tables}}{{if .Folded}}<h3>{{.Caption}}</h3>
{{template "table" .}}{{end}}{{end}}{{range .MoreImages}}{{template "figure" .}}{{end}}</details>
{{end}}<h2>Command</h2>
<pre id="command">{{.CommandLine}}</pre>
{{range .Config}}<details><summary>{{.Title}}</summary>
<pre>{{.Text}}</pre>
</details>
{{end}}</body></html>
{{define "table"}}<table><thead><tr>{{range .Header}}<th>{{.}}</th>{{end}}</tr></thead><tbody>
{{range .Rows}}<tr>{{range .}}<td>{{.}}</td>{{end}}</tr>
{{end}}</tbody></table>
{{end}}{{define "figure"}}<figure><img src="{{.URI}}" alt="{{.Name}}"><figcaption>{{.Name}}</figcaption></figure>
{{end}}`))

// Write renders pg to path (atomically).
func Write(path string, pg *Page) error {
	data := struct {
		*Page
		CommandLine  string
		Images       []image
		MoreImages   []image
		FoldedTables int
		MoreSummary  string
	}{Page: pg, CommandLine: shellQuote(pg.Command)}
	embed := func(files []string) ([]image, error) {
		var out []image
		for _, f := range files {
			b, err := os.ReadFile(f)
			if err != nil {
				return nil, err
			}
			out = append(out, image{
				Name: strings.TrimSuffix(filepath.Base(f), ".png"),
				URI:  template.URL("data:image/png;base64," + base64.StdEncoding.EncodeToString(b)),
			})
		}
		return out, nil
	}
	var err error
	if data.Images, err = embed(pg.Images); err != nil {
		return err
	}
	if data.MoreImages, err = embed(pg.More); err != nil {
		return err
	}
	var parts []string
	for _, t := range pg.Tables {
		if t.Folded {
			data.FoldedTables++
			parts = append(parts, t.Caption)
		}
	}
	if len(pg.More) > 0 {
		parts = append(parts, fmt.Sprintf("%d more figures", len(pg.More)))
	}
	data.MoreSummary = strings.Join(parts, " · ")
	var buf bytes.Buffer
	if err := page.Execute(&buf, data); err != nil {
		return err
	}
	return output.WriteFileAtomic(path, buf.Bytes())
}

// shellQuote renders argv so it can be pasted into a shell.
func shellQuote(args []string) string {
	var out []string
	for _, a := range args {
		if a != "" && !strings.ContainsAny(a, " \t\n'\"\\$`!*?[](){}<>|&;#~") {
			out = append(out, a)
			continue
		}
		out = append(out, "'"+strings.ReplaceAll(a, "'", `'\''`)+"'")
	}
	return strings.Join(out, " ")
}

// Dir writes dir/report.html for a compare or sweep results directory, drawing the figures
// first when dir/plots holds none. command is the command line to show (the manifest's when
// nil).
func Dir(dir string, command []string) (string, error) {
	man, err := output.ReadManifest(dir)
	if err != nil {
		return "", err
	}
	rows, err := output.ReadResults(dir)
	if err != nil {
		return "", err
	}
	if len(plot.Files(filepath.Join(dir, plot.PlotsDir))) == 0 {
		if _, err := plot.Dir(dir); err != nil {
			return "", err
		}
	}
	imgs, more, err := plot.Ordered(dir)
	if err != nil {
		return "", err
	}
	if command == nil {
		command = man.Command
	}
	pg := &Page{
		Title:   fmt.Sprintf("%s of %s", man.Kind, filepath.Base(man.Base)),
		Kind:    man.Kind,
		Command: command,
		Version: man.Version,
		Images:  imgs,
		More:    more,
	}
	groups := output.GroupByPoint(rows)
	st := output.Tabulate(groups)
	header := []string{"metric"}
	for _, g := range groups {
		header = append(header, output.GroupLabel(g))
	}
	runs := []string{"runs"}
	for _, g := range groups {
		runs = append(runs, fmt.Sprint(len(g.Rows)))
	}
	// One table per part of the compare table: each statement's duration and traffic impact
	// shown, the run metrics and the phases folded.
	for _, sec := range st.Sections() {
		caption := fmt.Sprintf("%s: mean ± 95%% CI over %d seeds", sec.Title, len(man.Seeds))
		if len(man.Seeds) == 1 {
			caption = sec.Title + ": one seed (no confidence interval)"
		}
		t := Table{Caption: caption,
			Header: header, Rows: [][]string{runs}, Folded: sec.Kind != metrics.KindImpact}
		for _, mi := range sec.Rows {
			r := []string{st.Metrics[mi]}
			for gi := range groups {
				r = append(r, st.Cells[mi][gi].Cell())
			}
			t.Rows = append(t.Rows, r)
		}
		pg.Tables = append(pg.Tables, t)
	}
	if len(groups) > 1 {
		pts := Table{Caption: "Points", Header: append([]string{"point"}, output.ColumnsOf(rows).Params...), Folded: true}
		for _, g := range groups {
			r := []string{fmt.Sprint(g.Point)}
			for _, p := range pts.Header[1:] {
				v, _ := g.Params.Get(p)
				r = append(r, v)
			}
			pts.Rows = append(pts.Rows, r)
		}
		pg.Tables = append(pg.Tables, pts)
	}
	if b, err := config.ReadInput(filepath.Join(dir, "trust.json")); err == nil {
		var tr trust.Trust
		if json.Unmarshal(b, &tr) == nil {
			pg.Tables = append(pg.Tables, trustTables(&tr)...)
		}
	}
	seeds := fmt.Sprint(man.Seeds)
	pg.Config = append(pg.Config, Section{Title: "Spec (spec hash " + man.SpecHash + ", seeds " + seeds + ")", Text: man.Spec})
	if b, err := config.ReadInput(man.Base); err == nil {
		pg.Config = append(pg.Config, Section{Title: "Base scenario " + man.Base + " (config hash " + man.BaseHash + ")", Text: string(b)})
	}
	out := filepath.Join(dir, FileName)
	return out, Write(out, pg)
}

// Run writes dir/report.html for one run: its summary, DDL statements with phases, the
// throughput figure (drawn into dir/plots), and the resolved configuration. It is what
// `ddlsim run --report` calls.
func Run(dir string, res *runner.Result, command []string) (string, error) {
	title := res.Scenario.Name
	files, err := plot.Run(dir, RunTitle(res), &res.Series, res.DDL)
	if err != nil {
		return "", err
	}
	pg := &Page{Title: "run of " + title, Kind: "run", Command: command, Version: output.Version}
	for _, f := range files {
		if strings.HasSuffix(f, ".png") {
			pg.Images = append(pg.Images, f)
		}
	}
	if len(res.DDL) > 0 {
		pg.Tables = append(pg.Tables, ddlTable(res.DDL))
	}
	pg.Tables = append(pg.Tables, summaryTable(res.Summary))
	if len(res.DDL) > 0 {
		pg.Tables = append(pg.Tables, phaseTable(res.DDL))
	}
	tr := trust.Of(res.Scenario)
	tr.Observed = trust.CompareObserved(res.Scenario, &res.Series, res.DDL)
	pg.Tables = append(pg.Tables, trustTables(tr)...)
	cfg, err := config.Marshal(res.Scenario)
	if err != nil {
		return "", err
	}
	pg.Config = append(pg.Config, Section{Title: fmt.Sprintf("Configuration (seed %d, config hash %s)", res.Seed, res.ConfigHash), Text: string(cfg)})
	out := filepath.Join(dir, FileName)
	return out, Write(out, pg)
}

// trustTables are how far to trust the answer (internal/trust): the validation record of
// its statements, captioned with the console's trust line, and the profile's constants by
// origin (folded).
func trustTables(t *trust.Trust) []Table {
	v := Table{Caption: "How far to trust it — " + t.Line(), Header: []string{"statement", "server", "statistic", "points", "simulated / measured", "scenarios"}}
	for _, r := range t.Validation {
		v.Rows = append(v.Rows, []string{r.Statement, r.Server, r.Stat, fmt.Sprint(r.Points),
			fmt.Sprintf("%s – %s", metrics.Plain(r.MinRatio, 3), metrics.Plain(r.MaxRatio, 3)), strings.Join(r.Scenarios, ", ")})
	}
	for _, u := range t.Unvalidated {
		v.Rows = append(v.Rows, []string{u, "", "", "0", "never compared with a measurement", ""})
	}
	c := Table{Caption: "The profile's constants: where each comes from", Header: []string{"constant", "origin", "from", "status", "on / source"}, Folded: true}
	for _, k := range t.Constants {
		c.Rows = append(c.Rows, []string{k.Name, k.Origin, k.From, k.Status, k.On + k.Source})
	}
	ts := []Table{v}
	if o := observedTable(t); o != nil {
		ts = append(ts, *o)
	}
	return append(ts, c)
}

// observedTable is the simulated statement rate against the real server's (the scenario's
// observed: block, trust.CompareObserved): one row for a run, one per run for a compare or
// sweep; nil when the scenario gives no observed rate.
func observedTable(t *trust.Trust) *Table {
	if t.Observed == nil && len(t.ObservedRuns) == 0 {
		return nil
	}
	tb := Table{Caption: fmt.Sprintf("Simulated statements/s against the server's observed rate (band %s× either way)", metrics.Plain(trust.ObservedBand, 2)),
		Header: []string{"run", "observed /s", "simulated /s", "simulated / observed", "within band", "over", "observed by"}}
	row := func(run string, o *trust.Observed) []string {
		return []string{run, metrics.Plain(o.StatementsPerSObserved, 6), metrics.Plain(o.Simulated, 6), metrics.Plain(o.Ratio, 3),
			fmt.Sprint(o.WithinBand), o.Basis, o.Source}
	}
	if t.Observed != nil {
		tb.Rows = append(tb.Rows, row("this run", t.Observed))
	}
	for i := range t.ObservedRuns {
		r := &t.ObservedRuns[i]
		tb.Rows = append(tb.Rows, row(fmt.Sprintf("point %d %s seed %d", r.Point, r.Params, r.Seed), &r.Observed))
	}
	return &tb
}

// RunTitle is the title of a run's throughput figure: scenario, policy and seed.
func RunTitle(res *runner.Result) string {
	return fmt.Sprintf("%s (policy %s, seed %d)", res.Scenario.Name, res.Scenario.Policy, res.Seed)
}

func summaryTable(s metrics.Summary) Table {
	t := Table{Caption: "Run metrics", Header: []string{"metric", "value"}}
	for _, m := range s {
		t.Rows = append(t.Rows, []string{m.Name, metrics.Plain(m.Value, 6)})
	}
	return t
}

// ddlTable is each statement's duration and traffic impact, what the report leads with.
func ddlTable(ds []metrics.DDLResult) Table {
	t := Table{Caption: "DDL statements: duration and traffic impact", Header: []string{"op", "table", "policy", "start (s)", "duration (s)",
		"baseline TPS", "min TPS", "mean TPS", "p95 latency (ms)", "p99 latency (ms)", "s below ½ baseline"}}
	p := func(v float64) string { return metrics.Plain(v, 4) }
	for _, d := range ds {
		dur := p(d.DurationS)
		if d.Failed {
			dur = "failed: " + d.Reason
		} else if d.Unfinished {
			dur = "unfinished (> " + dur + " s)"
		}
		t.Rows = append(t.Rows, []string{d.Op, d.Table, d.Policy, p(d.StartS), dur,
			p(d.BaselineTPS), p(d.MinTPS), p(d.MeanTPS), p(d.LatP95Ms), p(d.LatP99Ms), p(d.BelowHalfS)})
	}
	return t
}

// phaseTable is each statement's phases, in order, and its buffer-pool work; folded.
func phaseTable(ds []metrics.DDLResult) Table {
	t := Table{Caption: "DDL statements: phases and work", Header: []string{"op", "table", "phases (s)", "nodes visited", "pages flushed", "pages freed"}, Folded: true}
	for _, d := range ds {
		var ph []string
		for _, x := range d.Phases {
			ph = append(ph, x.Name+" "+metrics.Plain(x.EndS-x.StartS, 3))
		}
		t.Rows = append(t.Rows, []string{d.Op, d.Table, strings.Join(ph, ", "),
			fmt.Sprint(d.NodesVisited), fmt.Sprint(d.PagesFlushed), fmt.Sprint(d.PagesFreed)})
	}
	return t
}
