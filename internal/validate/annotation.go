package validate

import (
	"fmt"
	"path/filepath"
	"slices"
	"strings"

	"github.com/ddlsim/ddlsim/model/config"
)

// Annotation is one validation file (docs/validation/*.yaml), read by `ddlsim validate`
// (docs/validation.md): the scenario it is about, and the published or measured values that
// scenario is set up to reproduce, where each comes from, and whether a model constant was
// fitted on it. The values live here, beside docs/validation.md, and not in the scenario: a
// scenario holds a setup and never a published outcome (the calibration rule), and nothing a
// simulation reads can see them.
//
//	scenario: ../../scenarios/lab/baseline-a.yaml   # relative to this file
//	validation:
//	  table: lab-baseline                  # the table of docs/validation.md its rows go into
//	  seeds: 3                             # runs per point: seed, seed+1, ... (default 1)
//	  points:
//	    - label: A, 256 MiB
//	      set: [mysql.innodb_buffer_pool_size=256MiB]   # --set overrides of this point
//	      policy: fullscan                 # optional: the point's policy (default the scenario's)
//	      role: fit                        # fit | predict | check | report
//	      compare:
//	        - {stat: hit_ratio_mean, measured: 0.95308, source: "lab/results/baseline/runs.csv d8x1M-256M"}
type Annotation struct {
	Scenario   string     `yaml:"scenario"`
	Validation Validation `yaml:"validation"`
}

// Validation is an annotation's table, seeds and points.
type Validation struct {
	Table  string            `yaml:"table"`
	Seeds  int               `yaml:"seeds"`
	Points []ValidationPoint `yaml:"points"`
}

// LoadAnnotation reads and checks a validation file: strict decoding (unknown keys, wrong
// types, every problem with its line and column) and the annotation's own rules. The
// scenario path is returned resolved against the file's directory; whether the scenario and
// each point's overrides load is the caller's to check (they are scenario loads).
func LoadAnnotation(path string) (*Annotation, error) {
	a, _, err := loadAnnotation(path)
	return a, err
}

// loadAnnotation is LoadAnnotation that also returns where each field was written, so a
// problem found later (a point's override, a statistic) is reported at its line.
func loadAnnotation(path string) (*Annotation, positions, error) {
	data, err := config.ReadInput(path)
	if err != nil {
		return nil, nil, err
	}
	a := new(Annotation)
	seen, errs := config.DecodeFile(path, data, a)
	pos := positions(seen)
	if len(errs) == 0 {
		for _, e := range checkAnnotation(a) {
			errs = append(errs, pos.at(path, e.path, e.msg))
		}
	}
	if len(errs) > 0 {
		return nil, nil, errs.Sorted()
	}
	if !filepath.IsAbs(a.Scenario) {
		a.Scenario = filepath.Join(filepath.Dir(path), a.Scenario)
	}
	return a, pos, nil
}

// positions are the fields of a validation file by path (config.DecodeFile).
type positions map[string]config.Pos

// at is the problem msg about path in file, at the field's position or, for a field that is
// missing, its nearest written parent's (a point missing its role is reported at the point).
func (p positions) at(file, path, msg string) *config.FieldError {
	fe := &config.FieldError{File: file, Path: path, Msg: msg}
	for q := path; q != ""; q = parentPath(q) {
		if pos, ok := p[q]; ok {
			fe.Line, fe.Col = pos.Line, pos.Col
			if q == path {
				fe.Value = pos.Value
			}
			break
		}
	}
	return fe
}

// parentPath is the YAML path one level up: a.b[2].c → a.b[2] → a.b → a → "".
func parentPath(p string) string {
	i := strings.LastIndexAny(p, ".[")
	if i < 0 {
		return ""
	}
	return p[:i]
}

// ValidationPoint is one simulated setup (the scenario with Set applied, under Policy) and the
// values it is compared with.
type ValidationPoint struct {
	Label  string   `yaml:"label"`
	Set    []string `yaml:"set"`
	Policy string   `yaml:"policy"`
	// Role is what the point's values are to the model: "fit" (a constant was fitted on them:
	// say which in the value's fits), "predict" (never tuned toward: a prediction reported as it
	// comes out), "check" (a value the model is expected to meet, nothing fitted on it) or
	// "report" (a simulated value shown for reference, with no measured value).
	Role    string            `yaml:"role"`
	Compare []ValidationValue `yaml:"compare"`
}

// ValidationValue is one published or measured value and the simulated statistic it is
// compared with.
type ValidationValue struct {
	// Stat names the simulated statistic: a summary metric (tps_mean, hit_ratio_mean,
	// temp_loop_iud_ratio, ...), a DDL statement's column as `ddl compare` names it
	// (ddl0_create_index_duration_s, ddl0_create_index_observer_flush_s), or the mean over
	// every DDL statement of the run of a ddl.csv column (ddl.duration_s, ddl.mean_tps,
	// ddl.baseline_tps) or of their ratio ddl.tps_ratio (mean_tps / baseline_tps).
	Stat string `yaml:"stat"`
	// Measured is the published or measured value, in the statistic's unit; absent for a
	// simulated value the table shows for reference (role report).
	Measured *float64 `yaml:"measured"`
	// Bound: "" (a value), "upper" (published as "< value") or "lower" ("> value").
	Bound  string `yaml:"bound,omitempty"`
	Source string `yaml:"source"`
	// Role overrides the point's for this value.
	Role string `yaml:"role,omitempty"`
	// Fits names the constants fitted on this value (role fit).
	Fits string `yaml:"fits,omitempty"`
	// Note is shown next to the value in the rendered table.
	Note string `yaml:"note,omitempty"`
}

// ValidationRoles are the accepted roles of a point or a value.
var ValidationRoles = []string{"fit", "predict", "check", "report"}

// EffectiveRole is the value's role: its own, else its point's.
func (v ValidationValue) EffectiveRole(pt ValidationPoint) string {
	if v.Role != "" {
		return v.Role
	}
	return pt.Role
}

// finding is one broken rule of an annotation, before it is placed in the file.
type finding struct{ path, msg string }

func checkAnnotation(a *Annotation) []finding {
	v := &a.Validation
	var out []finding
	add := func(path, msg string) { out = append(out, finding{path: "validation" + path, msg: msg}) }
	if a.Scenario == "" {
		out = append(out, finding{path: "scenario", msg: "missing: expected the scenario file this annotation is about"})
	}
	if v.Table == "" {
		add(".table", "missing: expected the name of the docs/validation.md table the rows go into")
	}
	if v.Seeds < 0 {
		add(".seeds", "expected at least 1 (0 = the default, 1)")
	}
	if len(v.Points) == 0 {
		add(".points", "missing: expected at least one point")
	}
	labels := map[string]bool{}
	for i, pt := range v.Points {
		p := fmt.Sprintf(".points[%d]", i)
		if pt.Label == "" {
			add(p+".label", "missing: expected a label (the row's name)")
		} else if labels[pt.Label] {
			add(p+".label", fmt.Sprintf("duplicate label %q", pt.Label))
		}
		labels[pt.Label] = true
		if !slices.Contains(ValidationRoles, pt.Role) {
			add(p+".role", "expected one of "+strings.Join(ValidationRoles, ", "))
		}
		for j, s := range pt.Set {
			if k, _, ok := strings.Cut(s, "="); !ok || strings.TrimSpace(k) == "" {
				add(fmt.Sprintf("%s.set[%d]", p, j), "expected path=value, as --set takes it")
			}
		}
		if len(pt.Compare) == 0 {
			add(p+".compare", "missing: expected at least one value to compare")
		}
		for j, c := range pt.Compare {
			q := fmt.Sprintf("%s.compare[%d]", p, j)
			if c.Stat == "" {
				add(q+".stat", "missing: expected a statistic (tps_mean, ddl.duration_s, ...)")
			}
			if c.Source == "" {
				add(q+".source", "missing: expected where the value comes from")
			}
			if c.Role != "" && !slices.Contains(ValidationRoles, c.Role) {
				add(q+".role", "expected one of "+strings.Join(ValidationRoles, ", "))
			}
			if c.EffectiveRole(pt) == "fit" && c.Fits == "" {
				add(q+".fits", "missing: a fit value names the constants fitted on it")
			}
			if (c.Measured == nil) != (c.EffectiveRole(pt) == "report") {
				add(q+".measured", "a value needs measured unless its role is report (a simulated value with nothing to compare)")
			}
			if c.Bound != "" && c.Bound != "upper" && c.Bound != "lower" {
				add(q+".bound", `expected "upper" or "lower" (or nothing)`)
			}
		}
	}
	return out
}
