package output_test

import (
	"os"
	"regexp"
	"slices"
	"sort"
	"strings"
	"testing"

	"github.com/ddlsim/ddlsim/internal/output"
	"github.com/ddlsim/ddlsim/model/config"
	"github.com/ddlsim/ddlsim/model/runner"
)

// docNames are the names a doc section documents: the backticked names of the first column of
// its tables (a cell may list several), as exact names and, for a name with <placeholders>, a
// pattern.
type docNames struct {
	exact    map[string]bool
	patterns map[string]*regexp.Regexp
}

func (d docNames) has(name string) bool {
	if d.exact[name] {
		return true
	}
	for _, re := range d.patterns {
		if re.MatchString(name) {
			return true
		}
	}
	return false
}

func (d *docNames) add(name string) {
	if strings.Contains(name, "<") {
		q := regexp.QuoteMeta(name)
		q = regexp.MustCompile(`<[a-z]+>`).ReplaceAllString(q, `.+`)
		d.patterns[name] = regexp.MustCompile("^" + q + "$")
		return
	}
	d.exact[name] = true
}

var backticked = regexp.MustCompile("`([^`]+)`")

// section returns the text of doc from the heading line `heading` to the next heading of the
// same or a higher level.
func section(t *testing.T, doc, heading string) string {
	t.Helper()
	i := strings.Index(doc, "\n"+heading+"\n")
	if i < 0 {
		t.Fatalf("no %q heading", heading)
	}
	rest := doc[i+len(heading)+2:]
	level := strings.Count(strings.Fields(heading)[0], "#")
	for _, l := range regexp.MustCompile(`(?m)^#+ `).FindAllStringIndex(rest, -1) {
		if l[1]-l[0]-1 <= level {
			return rest[:l[0]]
		}
	}
	return rest
}

// tableNames collects the first-column names of every table in text.
func tableNames(text string) docNames {
	d := docNames{exact: map[string]bool{}, patterns: map[string]*regexp.Regexp{}}
	for _, l := range strings.Split(text, "\n") {
		if !strings.HasPrefix(l, "| `") {
			continue
		}
		first := strings.Split(l, "|")[1]
		for _, m := range backticked.FindAllStringSubmatch(first, -1) {
			d.add(m[1])
		}
	}
	return d
}

// compareNames checks both directions: every written name is documented, every documented one
// is written.
func compareNames(t *testing.T, what string, doc docNames, written []string) {
	t.Helper()
	w := map[string]bool{}
	for _, n := range written {
		w[n] = true
		if !doc.has(n) {
			t.Errorf("%s: %s is written but not documented", what, n)
		}
	}
	var missing []string
	for n := range doc.exact {
		if !w[n] {
			missing = append(missing, n)
		}
	}
	for n, re := range doc.patterns {
		found := false
		for _, x := range written {
			found = found || re.MatchString(x)
		}
		if !found {
			missing = append(missing, n)
		}
	}
	sort.Strings(missing)
	for _, n := range missing {
		t.Errorf("%s: %s is documented but not written", what, n)
	}
}

// A run that writes every optional column and metric: a co-located client (lab-2c: the CPU columns), a
// temp-table loop starting after 0 (the temp metrics), a CREATE INDEX (phases), an SLO (the
// latency harm columns).
const everything = `
name: everything
seed: 1
hardware: profiles/lab-2c.yaml
mysql: {version: "8.0.18", innodb_buffer_pool_size: 256MiB, innodb_buffer_pool_instances: 2}
data:
  - {name: big, tables: 1, rows: 50k}
warm: {fill: 0.9}
warmup: 1s
duration: 4s
workload:
  - sysbench: {mix: oltp_read_write, threads: 2, tables: big}
  - temp_table_connections: {threads: 1, temp_rows: 20k, start: 1s}
schedule:
  - {at: 1s, ddl: create_index, table: big, columns: [c]}
report: {interval: 1s}
slo: p99=50ms
`

// everythingMariaDB is a MariaDB run: its series have the stale-page columns.
const everythingMariaDB = `
name: everything-mariadb
seed: 1
hardware: profiles/8c-64g.yaml
mysql: {version: "mariadb-10.11.19", innodb_buffer_pool_size: 64MiB}
data:
  - {name: big, tables: 1, rows: 10k}
warm: {fill: 0.5}
warmup: 0s
duration: 1s
`

// Every column and metric docs/output.md documents is one the writers write, and every one they
// write is documented: series.csv, the summary metrics, ddl.csv and mutexes.csv; and the
// results.csv columns of docs/sweeps.md.
func TestOutputDocMatchesWriters(t *testing.T) {
	b, err := os.ReadFile("../../docs/output.md")
	if err != nil {
		t.Fatal(err)
	}
	doc := string(b)
	sc, err := config.LoadBytes("everything.yaml", []byte(everything), "../../scenarios")
	if err != nil {
		t.Fatal(err)
	}
	res, err := runner.Run(sc, runner.Options{})
	if err != nil {
		t.Fatal(err)
	}
	// MariaDB runs add the stale-page columns (metrics.StaleColumns).
	msc, err := config.LoadBytes("everything-mariadb.yaml", []byte(everythingMariaDB), "../../scenarios")
	if err != nil {
		t.Fatal(err)
	}
	mres, err := runner.Run(msc, runner.Options{})
	if err != nil {
		t.Fatal(err)
	}
	series := append([]string(nil), res.Series.Columns...)
	for _, c := range mres.Series.Columns {
		if !slices.Contains(series, c) {
			series = append(series, c)
		}
	}
	compareNames(t, "series.csv", tableNames(section(t, doc, "## series.csv")), series)
	var sum []string
	for _, m := range res.Summary {
		sum = append(sum, m.Name)
	}
	compareNames(t, "summary.json", tableNames(section(t, doc, "### Summary metrics")), sum)

	dir := t.TempDir() + "/run"
	if err := output.WriteDir(dir, output.Bundle{Series: &res.Series, Summary: res.Summary, DDL: res.DDL, Mutexes: res.Mutexes}); err != nil {
		t.Fatal(err)
	}
	header := func(f string) []string {
		b, err := os.ReadFile(dir + "/" + f)
		if err != nil {
			t.Fatal(err)
		}
		return strings.Split(strings.SplitN(string(b), "\n", 2)[0], ",")
	}
	compareNames(t, "ddl.csv", tableNames(section(t, doc, "## ddl.csv")), header(output.DDLFile))
	compareNames(t, "mutexes.csv", tableNames(section(t, doc, "## mutexes.csv")), header(output.MutexFile))

	// docs/sweeps.md lists the results.csv columns in its "CSV columns:" paragraph.
	b, err = os.ReadFile("../../docs/sweeps.md")
	if err != nil {
		t.Fatal(err)
	}
	i := strings.Index(string(b), "CSV columns:")
	if i < 0 {
		t.Fatal("docs/sweeps.md has no \"CSV columns:\" paragraph")
	}
	para, _, _ := strings.Cut(string(b)[i:], "\n\n")
	d := docNames{exact: map[string]bool{}, patterns: map[string]*regexp.Regexp{}}
	for _, m := range backticked.FindAllStringSubmatch(para, -1) {
		for _, n := range strings.Split(m[1], ",") {
			if n = strings.TrimSpace(n); n != "" && !strings.ContainsAny(n, " +/") {
				d.add(n)
			}
		}
	}
	row := output.Row{Point: 0, Seed: 1, Params: output.Params{{Path: "policy", Value: "fullscan"}}, DDL: res.DDL}
	var cols []string
	for _, c := range output.ColumnsOf([]output.Row{row}).Header() {
		if c != "policy" { // the swept paths and the metrics, named by the spec and the summary
			cols = append(cols, c)
		}
	}
	compareNames(t, "results.csv", d, cols)
}
