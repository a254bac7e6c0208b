package config

import (
	"encoding/json"
	"os"
	"reflect"
	"strings"
	"testing"
)

// TestNotebookUnits: the sweep-analysis notebook orders and positions swept values ("512MiB",
// "2m") by parsing them; its suffix table must be this package's, so the notebook reads a
// value as ddlsim does (m is MiB for a size and minutes for a duration, never 10^6).
func TestNotebookUnits(t *testing.T) {
	const path = "../../notebooks/sweep-analysis.ipynb"
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
	var code strings.Builder
	for _, c := range nb.Cells {
		if c.Type == "code" {
			code.WriteString(strings.Join(c.Source, ""))
			code.WriteString("\n")
		}
	}
	src := code.String()
	const begin, end = "# units: begin", "# units: end"
	i, j := strings.Index(src, begin), strings.Index(src, end)
	if i < 0 || j < i {
		t.Fatalf("%s: no %q ... %q block", path, begin, end)
	}
	block := src[i:j]
	k := strings.Index(block, "UNITS =")
	if k < 0 {
		t.Fatalf("%s: the units block has no UNITS = {...}", path)
	}
	var got map[string]map[string]int64
	if err := json.Unmarshal([]byte(block[k+len("UNITS ="):]), &got); err != nil {
		t.Fatalf("%s: UNITS must be a JSON-compatible literal of integers: %v", path, err)
	}
	want := map[string]map[string]int64{
		"size":     sizeParseUnits,
		"duration": durationParseUnits,
		"count":    countParseUnits,
	}
	for kind, w := range want {
		if !reflect.DeepEqual(got[kind], w) {
			t.Errorf("%s: UNITS[%q] = %v\nmodel/config parses %v", path, kind, got[kind], w)
		}
	}
	for kind := range got {
		if _, ok := want[kind]; !ok {
			t.Errorf("%s: UNITS[%q]: not a unit kind of model/config", path, kind)
		}
	}
}
