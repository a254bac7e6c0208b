package main

import (
	"encoding/csv"
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// TestNotebookColumns: every output column or key the notebooks read (their COLS dicts) is
// one ddlsim writes, so renaming a column in a writer fails here, in go test, and not only
// when .ci/notebooks.sh executes the notebooks. A COLS key starting "manifest_" names a key
// of manifest.json, "series_" a column of a run's series CSV; any other a column of
// results.csv (policy-comparison, {j} standing for a DDL's index) or a key of a
// results.jsonl row or of its params (sweep-analysis).
func TestNotebookColumns(t *testing.T) {
	bin := wfBuild(t, "")
	root := t.TempDir()
	cmp, swp := filepath.Join(root, "compare"), filepath.Join(root, "sweep")
	wfRun(t, bin, nil, "compare", "testdata/small.yaml", "--policies", "fullscan,indexed", "--seeds", "1", "--out", cmp)
	wfRun(t, bin, nil, "sweep", wfCISpec, "--shard", "0/3", "--out", swp)

	// policy-comparison.ipynb reads compare's results.csv, series/ and manifest.json.
	cols := notebookCOLS(t, "../../notebooks/policy-comparison.ipynb")
	results := csvHeader(t, filepath.Join(cmp, "results.csv"))
	series, _ := filepath.Glob(filepath.Join(cmp, "series", "*.csv"))
	if len(series) == 0 {
		t.Fatal("compare wrote no series")
	}
	seriesCols := csvHeader(t, series[0])
	manifest := jsonKeys(t, filepath.Join(cmp, "manifest.json"))
	for key, col := range cols {
		var have map[string]bool
		switch {
		case strings.HasPrefix(key, "manifest_"):
			have = manifest
		case strings.HasPrefix(key, "series_"):
			have = seriesCols
		default:
			have, col = results, strings.ReplaceAll(col, "{j}", "0")
		}
		if !have[col] {
			t.Errorf("policy-comparison.ipynb: COLS[%q] = %q: compare writes no such column or key", key, col)
		}
	}

	// sweep-analysis.ipynb reads sweep's results.jsonl and manifest.json.
	cols = notebookCOLS(t, "../../notebooks/sweep-analysis.ipynb")
	manifest = jsonKeys(t, filepath.Join(swp, "manifest.json"))
	b, err := os.ReadFile(filepath.Join(swp, "results.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	var row map[string]json.RawMessage
	if err := json.Unmarshal([]byte(strings.SplitN(string(b), "\n", 2)[0]), &row); err != nil {
		t.Fatal(err)
	}
	var params map[string]any
	_ = json.Unmarshal(row["params"], &params)
	for key, col := range cols {
		_, inRow := row[col]
		_, inParams := params[col]
		if strings.HasPrefix(key, "manifest_") {
			inRow, inParams = manifest[col], false
		}
		if !inRow && !inParams {
			t.Errorf("sweep-analysis.ipynb: COLS[%q] = %q: sweep writes no such key", key, col)
		}
	}
}

var colsEntry = regexp.MustCompile(`"([A-Za-z0-9_]+)":\s*"([^"]*)"`)

// notebookCOLS is the notebook's COLS = {...} dict (string keys and values).
func notebookCOLS(t *testing.T, path string) map[string]string {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var nb struct {
		Cells []struct {
			Type   string   `json:"cell_type"`
			Source []string `json:"source"`
		} `json:"cells"`
	}
	if err := json.Unmarshal(b, &nb); err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	for _, c := range nb.Cells {
		src := strings.Join(c.Source, "")
		i := strings.Index(src, "COLS = {")
		if c.Type != "code" || i < 0 {
			continue
		}
		j := strings.Index(src[i:], "\n}")
		if j < 0 {
			t.Fatalf("%s: COLS = { is not closed by a line starting with }", path)
		}
		cols := map[string]string{}
		for _, m := range colsEntry.FindAllStringSubmatch(src[i:i+j], -1) {
			cols[m[1]] = m[2]
		}
		if len(cols) < 5 {
			t.Fatalf("%s: COLS has %d entries; the parse is broken", path, len(cols))
		}
		return cols
	}
	t.Fatalf("%s: no COLS = {...} dict", path)
	return nil
}

func csvHeader(t *testing.T, path string) map[string]bool {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	rec, err := csv.NewReader(f).Read()
	if err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	have := map[string]bool{}
	for _, c := range rec {
		have[c] = true
	}
	return have
}

func jsonKeys(t *testing.T, path string) map[string]bool {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var m map[string]json.RawMessage
	if err := json.Unmarshal(b, &m); err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	have := map[string]bool{}
	for k := range m {
		have[k] = true
	}
	return have
}
