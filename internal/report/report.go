// Package report writes one self-contained HTML page for a run, a compare or a sweep: the
// summary tables, the figures (PNG embedded as data: URIs, so the page can be mailed or
// attached to an issue on its own), and the exact command line and configuration that produced
// it. Nothing is fetched when the page is opened: no scripts, fonts or stylesheets from
// elsewhere.
package report

import (
	"bytes"
	"encoding/base64"
	"fmt"
	"html/template"
	"os"
	"path/filepath"
	"strings"

	"github.com/ddlsim/ddlsim/internal/plot"
	"github.com/ddlsim/ddlsim/internal/sweep"
	"github.com/ddlsim/ddlsim/model/config"
	"github.com/ddlsim/ddlsim/model/metrics"
	"github.com/ddlsim/ddlsim/model/runner"
)

// FileName is the report's name inside a results directory.
const FileName = "report.html"

// Page is the content of a report.
type Page struct {
	Title   string
	Kind    string // run | compare | sweep
	Command []string
	Version string
	Tables  []Table
	Images  []string  // PNG files to embed, in order
	Config  []Section // configuration texts (scenario, spec)
}

// Table is a captioned table of strings.
type Table struct {
	Caption string
	Header  []string
	Rows    [][]string
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
</style></head><body>
<h1>{{.Title}}</h1>
<p>ddlsim {{.Kind}} report · ddlsim {{.Version}}</p>
<h2>Command</h2>
<pre id="command">{{.CommandLine}}</pre>
{{range .Tables}}<h2>{{.Caption}}</h2>
<table><thead><tr>{{range .Header}}<th>{{.}}</th>{{end}}</tr></thead><tbody>
{{range .Rows}}<tr>{{range .}}<td>{{.}}</td>{{end}}</tr>
{{end}}</tbody></table>
{{end}}{{if .Images}}<h2>Figures</h2>
{{range .Images}}<figure><img src="{{.URI}}" alt="{{.Name}}"><figcaption>{{.Name}}</figcaption></figure>
{{end}}{{end}}{{range .Config}}<h2>{{.Title}}</h2>
<pre>{{.Text}}</pre>
{{end}}</body></html>
`))

// Write renders pg to path (atomically).
func Write(path string, pg *Page) error {
	data := struct {
		*Page
		CommandLine string
		Images      []image
	}{Page: pg, CommandLine: shellQuote(pg.Command)}
	for _, f := range pg.Images {
		b, err := os.ReadFile(f)
		if err != nil {
			return err
		}
		data.Images = append(data.Images, image{
			Name: strings.TrimSuffix(filepath.Base(f), ".png"),
			URI:  template.URL("data:image/png;base64," + base64.StdEncoding.EncodeToString(b)),
		})
	}
	var buf bytes.Buffer
	if err := page.Execute(&buf, data); err != nil {
		return err
	}
	return sweep.WriteFileAtomic(path, buf.Bytes())
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
	man, err := sweep.ReadManifest(dir)
	if err != nil {
		return "", err
	}
	rows, err := sweep.ReadResults(dir)
	if err != nil {
		return "", err
	}
	imgs := plot.Files(filepath.Join(dir, plot.PlotsDir))
	if len(imgs) == 0 {
		if _, err := plot.Dir(dir); err != nil {
			return "", err
		}
		imgs = plot.Files(filepath.Join(dir, plot.PlotsDir))
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
	}
	groups := sweep.GroupByPoint(rows)
	st := sweep.Tabulate(groups)
	t := Table{Caption: fmt.Sprintf("Summary: mean ± 95%% CI over %d seeds", len(man.Seeds)), Header: []string{"metric"}}
	for _, g := range groups {
		t.Header = append(t.Header, sweep.GroupLabel(g))
	}
	runs := []string{"runs"}
	for _, g := range groups {
		runs = append(runs, fmt.Sprint(len(g.Rows)))
	}
	t.Rows = append(t.Rows, runs)
	for mi, name := range st.Metrics {
		r := []string{name}
		for gi := range groups {
			r = append(r, st.Cells[mi][gi].String())
		}
		t.Rows = append(t.Rows, r)
	}
	pg.Tables = append(pg.Tables, t)
	if len(groups) > 1 {
		pts := Table{Caption: "Points", Header: append([]string{"point"}, sweep.ColumnsOf(rows).Params...)}
		for _, g := range groups {
			r := []string{fmt.Sprint(g.Point.ID)}
			for _, p := range pts.Header[1:] {
				v, _ := g.Point.Get(p)
				r = append(r, v)
			}
			pts.Rows = append(pts.Rows, r)
		}
		pg.Tables = append(pg.Tables, pts)
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
	pg := &Page{Title: "run of " + title, Kind: "run", Command: command, Version: sweep.Version}
	for _, f := range files {
		if strings.HasSuffix(f, ".png") {
			pg.Images = append(pg.Images, f)
		}
	}
	pg.Tables = append(pg.Tables, summaryTable(res.Summary))
	if len(res.DDL) > 0 {
		pg.Tables = append(pg.Tables, ddlTable(res.DDL))
	}
	cfg, err := config.Marshal(res.Scenario)
	if err != nil {
		return "", err
	}
	pg.Config = append(pg.Config, Section{Title: fmt.Sprintf("Configuration (seed %d, config hash %s)", res.Seed, res.ConfigHash), Text: string(cfg)})
	out := filepath.Join(dir, FileName)
	return out, Write(out, pg)
}

// RunTitle is the title of a run's throughput figure: scenario, policy and seed.
func RunTitle(res *runner.Result) string {
	return fmt.Sprintf("%s (policy %s, seed %d)", res.Scenario.Name, res.Scenario.Policy, res.Seed)
}

func summaryTable(s metrics.Summary) Table {
	t := Table{Caption: "Summary", Header: []string{"metric", "value"}}
	for _, m := range s {
		t.Rows = append(t.Rows, []string{m.Name, fmt.Sprintf("%.6g", m.Value)})
	}
	return t
}

func ddlTable(ds []metrics.DDLResult) Table {
	t := Table{Caption: "DDL statements", Header: []string{"op", "table", "policy", "start (s)", "duration (s)", "phases", "nodes visited", "pages flushed", "min TPS", "s below ½ baseline"}}
	for _, d := range ds {
		var ph []string
		for _, p := range d.Phases {
			ph = append(ph, fmt.Sprintf("%s %.3gs", p.Name, p.EndS-p.StartS))
		}
		dur := fmt.Sprintf("%.4g", d.DurationS)
		if d.Failed {
			dur = "failed: " + d.Reason
		} else if d.Unfinished {
			dur = "unfinished: > " + dur
		}
		t.Rows = append(t.Rows, []string{d.Op, d.Table, d.Policy, fmt.Sprintf("%.4g", d.StartS), dur, strings.Join(ph, ", "),
			fmt.Sprint(d.NodesVisited), fmt.Sprint(d.PagesFlushed), fmt.Sprintf("%.4g", d.MinTPS), fmt.Sprintf("%.3g", d.SecondsBelowHalf)})
	}
	return t
}
