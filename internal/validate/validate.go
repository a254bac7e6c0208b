// Package validate implements `ddlsim validate`: for every validation file
// (docs/validation/*.yaml, annotation.go) it runs the scenario the file names at
// each of its points, compares each simulated statistic with the published or measured value
// the file gives, writes the machine-readable results (docs/validation/results.json) and
// renders the tables of docs/validation.md between their markers. The prose around the
// markers is hand-written; the tables are this package's output, and a test fails when the two
// differ.
package validate

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"sync"

	"github.com/ddlsim/ddlsim/internal/sweep"
	"github.com/ddlsim/ddlsim/model/config"
	"github.com/ddlsim/ddlsim/model/metrics"
	"github.com/ddlsim/ddlsim/model/runner"
	"gopkg.in/yaml.v3"
)

// Schema is the version of the results file's layout.
const Schema = 1

// Results is the committed outcome of a validation run.
type Results struct {
	Schema    int       `json:"schema"`
	Rows      []Row     `json:"rows"`
	Constants []Profile `json:"constants"`
}

// Row is one compared value: the annotation's fields, copied, and what the simulation gave.
type Row struct {
	Table      string   `json:"table"`
	Annotation string   `json:"annotation"` // the validation file, relative to the repository root
	File       string   `json:"file"`       // the scenario
	Point      string   `json:"point"`
	Set        []string `json:"set,omitempty"`
	Policy     string   `json:"policy,omitempty"`
	Role       string   `json:"role"`
	Stat       string   `json:"stat"`
	Measured   *float64 `json:"measured"` // null: a reported value (role report)
	Bound      string   `json:"bound,omitempty"`
	Source     string   `json:"source"`
	Fits       string   `json:"fits,omitempty"`
	Note       string   `json:"note,omitempty"`
	Seeds      []uint64 `json:"seeds"`
	// Sim is the statistic per seed (null: the run had no value, e.g. an unfinished DDL).
	Sim []Float `json:"sim"`
	// Mean and Half are the mean over the seeds and the half-width of its 95 % confidence
	// interval (null with one seed); Ratio is Mean / Measured.
	Mean  Float `json:"mean"`
	Half  Float `json:"half"`
	Ratio Float `json:"ratio"`
}

// Profile is a hardware profile's provenance table: each declared constant with its value.
type Profile struct {
	Name    string     `json:"profile"`
	File    string     `json:"file"`
	Entries []Constant `json:"entries"`
}

// Constant is one provenance entry with the profile's value of it.
type Constant struct {
	Name   string `json:"name"`
	Value  string `json:"value"`
	Status string `json:"status"`
	On     string `json:"on,omitempty"`
	Source string `json:"source,omitempty"`
}

// Float is a float64 that is null in JSON when NaN.
type Float float64

func (f Float) MarshalJSON() ([]byte, error) {
	if math.IsNaN(float64(f)) || math.IsInf(float64(f), 0) {
		return []byte("null"), nil
	}
	return []byte(metrics.JSONFloat(float64(f))), nil
}

func (f *Float) UnmarshalJSON(b []byte) error {
	if string(b) == "null" {
		*f = Float(math.NaN())
		return nil
	}
	var v float64
	if err := json.Unmarshal(b, &v); err != nil {
		return err
	}
	*f = Float(v)
	return nil
}

// Find lists the validation files in dir (sorted): the .yaml files with a top-level
// validation key.
func Find(dir string) ([]string, error) {
	ents, err := os.ReadDir(dir)
	if err != nil {
		return nil, err
	}
	var out []string
	for _, e := range ents {
		if e.IsDir() || !strings.HasSuffix(e.Name(), ".yaml") {
			continue
		}
		path := filepath.Join(dir, e.Name())
		data, err := config.ReadInput(path)
		if err != nil {
			return nil, err
		}
		var top map[string]yaml.Node
		if yaml.Unmarshal(data, &top) == nil {
			if _, ok := top["validation"]; ok {
				out = append(out, path)
			}
		}
	}
	sort.Strings(out)
	return out, nil
}

// Options control Run; none changes the results.
type Options struct {
	Jobs     int       // simulations at once (<= 0: all cores)
	Progress io.Writer // one line per finished run (nil: quiet)
	// Root is the repository root file paths are recorded relative to ("" = as given).
	Root string
}

// job is one simulation: a point of a file with one seed.
type job struct {
	file, point int
	seed        uint64
	sets        []string
}

// scenarioFile is a validation file and the scenario it names, loaded.
type scenarioFile struct {
	annot string // the validation file
	path  string // the scenario
	data  []byte
	sc    *config.Scenario
	v     *Validation
}

// Load reads validation files and their scenarios, and checks them whole before anything
// runs: each file's own fields, its scenario, every point's overrides and policy, and every
// statistic a compare entry names (runner.StatNames). Every problem of every file is
// returned at once, as config.Errors at the file:line of the field to fix (a point's
// override that does not apply is reported at the override, with the scenario's message).
func Load(files []string) ([]*scenarioFile, error) {
	var out []*scenarioFile
	var errs config.Errors
	for _, f := range files {
		a, pos, err := loadAnnotation(f)
		if err != nil {
			errs = append(errs, asFieldErrors(f, "", err)...)
			continue
		}
		data, err := config.ReadInput(a.Scenario)
		if err != nil {
			errs = append(errs, pos.at(f, "scenario", err.Error()))
			continue
		}
		sc, err := config.LoadBytesWith(a.Scenario, data, filepath.Dir(a.Scenario), nil, nil)
		if err != nil {
			errs = append(errs, asFieldErrors(a.Scenario, "", err)...)
			continue
		}
		sf := &scenarioFile{annot: f, path: a.Scenario, data: data, sc: sc, v: &a.Validation}
		for i, pt := range sf.v.Points {
			p := fmt.Sprintf("validation.points[%d]", i)
			psc, err := config.LoadBytesWith(sf.path, data, filepath.Dir(sf.path), pointSets(pt), nil)
			if err != nil {
				pe := pointErrors(f, p, pt, pos, err)
				errs = append(errs, pe...)
				// The statistics are still judged, on the point without the overrides that
				// failed, so every problem of the file is reported in one go.
				if psc, err = config.LoadBytesWith(sf.path, data, filepath.Dir(sf.path), goodSets(pt, p, pe), nil); err != nil {
					continue
				}
			}
			names := runner.StatNames(psc)
			for j, c := range pt.Compare {
				if c.Stat != "" && !runner.MatchStat(names, c.Stat) {
					errs = append(errs, pos.at(f, fmt.Sprintf("%s.compare[%d].stat", p, j), unknownStat(c.Stat, names)))
				}
			}
		}
		out = append(out, sf)
	}
	if len(errs) > 0 {
		return nil, errs
	}
	return out, nil
}

// unknownStat says a statistic is not one a run of the point's scenario reports, with the
// closest one and where the list is.
func unknownStat(stat string, names []string) string {
	var plain []string
	for _, n := range names {
		if !strings.Contains(n, "*") {
			plain = append(plain, n)
		}
	}
	hint := ""
	if s := config.Suggest(stat, plain); s != "" {
		hint = fmt.Sprintf(" (did you mean %s?)", s)
	}
	return fmt.Sprintf("not a statistic a run of this point reports%s: expected a summary metric, a DDL column (ddl0_<op>_duration_s), ddl.<field>, mean.<column>, per_txn.<column> or cpu_us_per_txn.<cpu column> (docs/scenarios.md, \"Validation files\")", hint)
}

// goodSets is the point's overrides less those a problem was placed at (pointErrors).
func goodSets(pt ValidationPoint, p string, problems []*config.FieldError) []string {
	bad := map[string]bool{}
	for _, fe := range problems {
		bad[fe.Path] = true
	}
	var out []string
	for j, s := range pt.Set {
		if !bad[fmt.Sprintf("%s.set[%d]", p, j)] {
			out = append(out, s)
		}
	}
	if pt.Policy != "" && !bad[p+".policy"] {
		out = append(out, "policy="+pt.Policy)
	}
	return out
}

// pointErrors places the problems of loading a point's scenario: an override's problem at
// the override (set[j], or policy), anything else at the point, each with the scenario's
// message.
func pointErrors(file, p string, pt ValidationPoint, pos positions, err error) []*config.FieldError {
	var out []*config.FieldError
	for _, fe := range asFieldErrors("", "", err) {
		where := p + ".label"
		if fe.File == "--set" {
			for j, s := range pt.Set {
				if k, _, _ := strings.Cut(s, "="); strings.TrimSpace(k) != "" && (fe.Path == strings.TrimSpace(k) || strings.HasPrefix(fe.Path, strings.TrimSpace(k)+".") || strings.HasPrefix(fe.Path, strings.TrimSpace(k)+"[")) {
					where = fmt.Sprintf("%s.set[%d]", p, j)
				}
			}
			if fe.Path == "policy" && pt.Policy != "" {
				where = p + ".policy"
			}
		}
		msg := fe.Error()
		if fe.File == "--set" {
			msg = fe.Path + ": " + fe.Msg
			if fe.Value != "" {
				msg = fmt.Sprintf("%s: bad value %q: %s", fe.Path, fe.Value, fe.Msg)
			}
		}
		out = append(out, pos.at(file, where, fmt.Sprintf("point %q: %s", pt.Label, msg)))
	}
	return out
}

// asFieldErrors is err's problems one by one (a config.Errors), or err as one problem of
// file at path.
func asFieldErrors(file, path string, err error) []*config.FieldError {
	var ce config.Errors
	if errors.As(err, &ce) {
		return ce
	}
	var fe *config.FieldError
	if errors.As(err, &fe) {
		return []*config.FieldError{fe}
	}
	var pe *os.PathError
	if errors.As(err, &pe) && (file == "" || pe.Path == file) {
		return []*config.FieldError{{File: pe.Path, Path: path, Msg: pe.Err.Error()}}
	}
	return []*config.FieldError{{File: file, Path: path, Msg: err.Error()}}
}

func pointSets(pt ValidationPoint) []string {
	sets := append([]string(nil), pt.Set...)
	if pt.Policy != "" {
		sets = append(sets, "policy="+pt.Policy)
	}
	return sets
}

func seedsOf(sf *scenarioFile) []uint64 {
	n := max(sf.v.Seeds, 1)
	out := make([]uint64, n)
	for i := range out {
		out[i] = sf.sc.Seed + uint64(i)
	}
	return out
}

// Run simulates every point of every file with its seeds on opt.Jobs workers and compares.
// The results depend on nothing but the files: runs are independent and collected in order.
func Run(ctx context.Context, files []string, opt Options) (*Results, error) {
	sfs, err := Load(files)
	if err != nil {
		return nil, err
	}
	var jobs []job
	for i, sf := range sfs {
		for j, pt := range sf.v.Points {
			for _, s := range seedsOf(sf) {
				jobs = append(jobs, job{file: i, point: j, seed: s, sets: pointSets(pt)})
			}
		}
	}
	stats := make([]map[string]float64, len(jobs))
	var mu sync.Mutex
	done := 0
	// The runs go through the sweep worker pool (sweep.Each), as compare's and sweep's do.
	err = sweep.Each(ctx, opt.Jobs, len(jobs), func(ctx context.Context, k int) error {
		jb := jobs[k]
		sf := sfs[jb.file]
		seed := jb.seed
		sc, err := config.LoadBytesWith(sf.path, sf.data, filepath.Dir(sf.path), jb.sets, &seed)
		if err == nil {
			var res *runner.Result
			if res, err = runner.Run(sc, runner.Options{Context: ctx}); err == nil {
				stats[k] = Stats(res, sc.HardwareProfile.Cores)
			}
		}
		if err != nil {
			if ctx.Err() != nil && errors.Is(err, context.Canceled) {
				return err
			}
			return fmt.Errorf("%s point %q seed %d: %w", sf.path, sf.v.Points[jb.point].Label, jb.seed, err)
		}
		mu.Lock()
		done++
		if opt.Progress != nil {
			fmt.Fprintf(opt.Progress, "validate: %d/%d %s [%s] seed %d\n", done, len(jobs), sf.path,
				sf.v.Points[jb.point].Label, seed)
		}
		mu.Unlock()
		return nil
	})
	if err != nil {
		return nil, err
	}
	res := &Results{Schema: Schema}
	k := 0
	for _, sf := range sfs {
		seeds := seedsOf(sf)
		for _, pt := range sf.v.Points {
			runs := stats[k : k+len(seeds)]
			k += len(seeds)
			for _, c := range pt.Compare {
				row := newRow(sf, pt, c, opt.Root)
				row.Seeds = seeds
				for i, st := range runs {
					v, ok := st[c.Stat]
					if !ok {
						return nil, fmt.Errorf("%s point %q seed %d: no statistic %q (the run has %s)", sf.path, pt.Label,
							seeds[i], c.Stat, strings.Join(statNames(st), ", "))
					}
					row.Sim = append(row.Sim, Float(v))
				}
				row.summarize()
				res.Rows = append(res.Rows, row)
			}
		}
	}
	res.Constants, err = constants(sfs, opt.Root)
	return res, err
}

func newRow(sf *scenarioFile, pt ValidationPoint, c ValidationValue, root string) Row {
	return Row{Table: sf.v.Table, Annotation: rel(root, sf.annot), File: rel(root, sf.path), Point: pt.Label, Set: pt.Set, Policy: pt.Policy,
		Role: c.EffectiveRole(pt), Stat: c.Stat, Measured: c.Measured, Bound: c.Bound, Source: c.Source,
		Fits: c.Fits, Note: c.Note}
}

// summarize fills Mean, Half and Ratio from Sim.
func (r *Row) summarize() {
	xs := make([]float64, len(r.Sim))
	for i, v := range r.Sim {
		xs[i] = float64(v)
	}
	st := metrics.MeanCI(xs)
	r.Mean, r.Half = Float(st.Mean), Float(st.Half)
	r.Ratio = Float(math.NaN())
	if r.Measured != nil && *r.Measured != 0 {
		r.Ratio = Float(st.Mean / *r.Measured)
	}
}

func rel(root, path string) string {
	if root == "" {
		return filepath.ToSlash(path)
	}
	if r, err := filepath.Rel(root, path); err == nil {
		return filepath.ToSlash(r)
	}
	return filepath.ToSlash(path)
}

func statNames(m map[string]float64) []string {
	var out []string
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

// Stats are the statistics a compare entry may name for one run (metrics.RunStats).
func Stats(res *runner.Result, cores int) map[string]float64 {
	return metrics.RunStats(res.Summary, res.DDL, &res.Series, cores)
}

// ProfileConstants is the provenance tables of the profiles the annotated files use.
func ProfileConstants(files []string, root string) ([]Profile, error) {
	sfs, err := Load(files)
	if err != nil {
		return nil, err
	}
	return constants(sfs, root)
}

// MaxResultsSize is the largest validation results file read: the committed one is about
// 60 KiB for 80 rows, so 16 MiB is 20 000 rows.
const MaxResultsSize = 16 << 20

// ReadResults reads a results file.
func ReadResults(path string) (*Results, error) {
	data, err := config.ReadInputLimit(path, MaxResultsSize, "a validation results file")
	if err != nil {
		return nil, err
	}
	var r Results
	if err := json.Unmarshal(data, &r); err != nil {
		return nil, fmt.Errorf("%s: %v", path, err)
	}
	if r.Schema != Schema {
		return nil, fmt.Errorf("%s: schema %d, this ddlsim reads %d", path, r.Schema, Schema)
	}
	return &r, nil
}

// Stale lists the differences between the annotations of files and the copies of them in r:
// a value, source, role or point edited (or added, or removed) since r was made. Empty means
// r is the results of exactly these annotations (its simulated values may still be old; the
// validation-tagged test re-runs them).
func Stale(r *Results, files []string, root string) ([]string, error) {
	sfs, err := Load(files)
	if err != nil {
		return nil, err
	}
	var want []Row
	for _, sf := range sfs {
		for _, pt := range sf.v.Points {
			for _, c := range pt.Compare {
				row := newRow(sf, pt, c, root)
				row.Seeds = seedsOf(sf)
				want = append(want, row)
			}
		}
	}
	key := func(x Row) string {
		x.Sim, x.Mean, x.Half, x.Ratio = nil, 0, 0, 0
		b, _ := json.Marshal(x)
		return string(b)
	}
	var diff []string
	for i := 0; i < max(len(want), len(r.Rows)); i++ {
		switch {
		case i >= len(r.Rows):
			diff = append(diff, fmt.Sprintf("not in the results: %s [%s] %s", want[i].File, want[i].Point, want[i].Stat))
		case i >= len(want):
			diff = append(diff, fmt.Sprintf("no longer annotated: %s [%s] %s", r.Rows[i].File, r.Rows[i].Point, r.Rows[i].Stat))
		case key(want[i]) != key(r.Rows[i]):
			diff = append(diff, fmt.Sprintf("annotation changed: %s [%s] %s\n  results: %s\n  file:    %s",
				want[i].File, want[i].Point, want[i].Stat, key(r.Rows[i]), key(want[i])))
		}
	}
	cs, err := constants(sfs, root)
	if err != nil {
		return nil, err
	}
	a, _ := json.Marshal(cs)
	b, _ := json.Marshal(r.Constants)
	if string(a) != string(b) {
		diff = append(diff, "the profiles' provenance tables changed")
	}
	return diff, nil
}
