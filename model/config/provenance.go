package config

import (
	"fmt"
	"reflect"
	"slices"
	"strings"
)

// Provenance says where one hardware-profile value comes from, machine-readably (the
// profile's comments say it in prose): `ddlsim validate` prints it next to the tables that
// use the profile. Like Validation it is documentation: not part of the effective
// configuration or its hash.
//
//	provenance:
//	  - {name: costs.list_node, status: measured, source: "lab/results/machine/chase.txt"}
//	  - {name: costs.statement, status: fitted, on: "lab baselines role=fit: mysqld CPU per transaction"}
type Provenance struct {
	Name   string `yaml:"name"`   // a hardware field path: costs.page_hit, client_rtt, storage.data.read
	Status string `yaml:"status"` // measured | fitted | assumed
	On     string `yaml:"on,omitempty"`
	Source string `yaml:"source,omitempty"`
}

// ProvenanceStatuses are the accepted statuses.
var ProvenanceStatuses = []string{"measured", "fitted", "assumed"}

func checkProvenance(hw *Hardware) []verr {
	var out []verr
	seen := map[string]bool{}
	for i, p := range hw.Provenance {
		path := fmt.Sprintf("hardware.provenance[%d]", i)
		if p.Name == "" {
			out = append(out, verr{path: path + ".name", msg: "missing: expected a hardware field such as costs.page_hit"})
		} else if !hardwareFieldExists(p.Name) {
			out = append(out, verr{path: path + ".name", msg: fmt.Sprintf("%q is not a hardware profile field", p.Name)})
		} else if seen[p.Name] {
			out = append(out, verr{path: path + ".name", msg: fmt.Sprintf("duplicate entry for %s", p.Name)})
		}
		seen[p.Name] = true
		if !slices.Contains(ProvenanceStatuses, p.Status) {
			out = append(out, verr{path: path + ".status", msg: "expected one of " + strings.Join(ProvenanceStatuses, ", ")})
		}
		if p.Status == "fitted" && p.On == "" {
			out = append(out, verr{path: path + ".on", msg: "missing: a fitted value says what it was fitted on"})
		}
		if p.Status != "fitted" && p.Source == "" {
			out = append(out, verr{path: path + ".source", msg: "missing: say where the value comes from"})
		}
	}
	return out
}

// hardwareFieldExists reports whether a dotted path names a field of Hardware.
func hardwareFieldExists(path string) bool {
	t := reflect.TypeFor[Hardware]()
	for _, seg := range strings.Split(path, ".") {
		if t.Kind() != reflect.Struct {
			return false
		}
		fs := fieldsOf(t)
		i, ok := fs.byName[seg]
		if !ok {
			return false
		}
		t = t.Field(i).Type
	}
	return true
}
