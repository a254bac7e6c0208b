package sweep

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"path/filepath"
	"strconv"
	"strings"

	"gopkg.in/yaml.v3"

	"github.com/ddlsim/ddlsim/internal/output"
	"github.com/ddlsim/ddlsim/model/config"
	"github.com/ddlsim/ddlsim/model/runner"
)

// Param is one assignment of a point: a scenario field path and the value (YAML text) given
// to it, as the results record it.
type Param = output.Param

// Point is one parameter combination. ID is its position in the enumeration.
type Point struct {
	ID     int
	Params output.Params
}

// Get returns the value of a parameter of the point.
func (p Point) Get(path string) (string, bool) { return p.Params.Get(path) }

// Spec is a parsed sweep specification file.
type Spec struct {
	File  string // path of the spec file ("" when built in code)
	Base  string // base scenario path, resolved relative to the spec file
	Seeds int    // runs per point
	// Seed is the first seed; nil means the base scenario's seed.
	Seed   *uint64
	Blocks []Block
	Text   []byte // the spec file as read (recorded in the manifest and the report)

	baseLine, axesLine int               // lines of the base: and axes: keys (0 when absent)
	valuePos           map[Param][2]int  // where each axis value is written: line, column
	pathPos            map[string][2]int // where each axis path is first written
}

// ValuePos is where the spec writes value for path (line and column, 1-based), so a problem
// with one point's value can be reported at that place; 0, 0 when unknown.
func (sp *Spec) ValuePos(path, value string) (line, col int) {
	p := sp.valuePos[Param{Path: path, Value: value}]
	return p[0], p[1]
}

// PathPos is where the spec first writes the axis path (line and column); 0, 0 when unknown.
func (sp *Spec) PathPos(path string) (line, col int) {
	p := sp.pathPos[path]
	return p[0], p[1]
}

// Block is one axis block: its points are combined with the other blocks' as a product.
type Block struct {
	Kind   string     // grid | zip | points
	Paths  []string   // grid/zip: the paths in file order
	Values [][]string // grid/zip: Values[i] lists Paths[i]'s values; points: unused
	Points [][]Param  // points: explicit assignments
}

// reserved names are output columns; an axis path may not take them.
var reserved = map[string]bool{
	"point": true, "seed": true, "config_hash": true, "ddlsim_version": true,
	"schema_version": true, "wall_time_s": true,
}

// problems collects every error of a file at once, each with its line. They are returned as
// config.Errors, so they print (file:line: message) and set the exit status like a scenario's.
type problems struct {
	file string
	list config.Errors
	pos  map[Param][2]int  // where each axis value is written
	keys map[string][2]int // where each axis path is first written
}

func (p *problems) addf(line int, format string, args ...any) {
	p.list = append(p.list, &config.FieldError{File: p.file, Line: line, Msg: fmt.Sprintf(format, args...)})
}

// at records where value of path is written, key and value nodes (the first place, if twice).
func (p *problems) at(path, value string, key, n *yaml.Node) {
	k := Param{Path: path, Value: value}
	if _, ok := p.pos[k]; !ok {
		p.pos[k] = [2]int{n.Line, n.Column}
	}
	if _, ok := p.keys[path]; !ok {
		p.keys[path] = [2]int{key.Line, key.Column}
	}
}

func (p *problems) err() error {
	if len(p.list) == 0 {
		return nil
	}
	return p.list
}

// LoadSpec reads and checks a sweep spec file. Every problem is reported at once, each with
// the file, line and field.
func LoadSpec(path string) (*Spec, error) {
	path = config.Locate(path) // a shipped sweep spec by name
	data, err := config.ReadInput(path)
	if err != nil {
		return nil, err
	}
	return ParseSpec(path, data)
}

// ParseSpec parses spec text; file names it in errors and anchors the base path.
func ParseSpec(file string, data []byte) (*Spec, error) {
	pr := &problems{file: file, pos: map[Param][2]int{}, keys: map[string][2]int{}}
	var doc yaml.Node
	if err := yaml.Unmarshal(data, &doc); err != nil {
		return nil, config.Errors{config.SyntaxError(file, err)}
	}
	if len(doc.Content) == 0 || doc.Content[0].Kind != yaml.MappingNode {
		return nil, fmt.Errorf("%s:1: a sweep spec is a mapping with base, seeds and axes", file)
	}
	root := doc.Content[0]
	sp := &Spec{File: file, Seeds: 1, Text: data, valuePos: pr.pos, pathPos: pr.keys}
	seedsLine := 0
	seen := map[string]bool{}
	for i := 0; i+1 < len(root.Content); i += 2 {
		k, v := root.Content[i], root.Content[i+1]
		seen[k.Value] = true
		switch k.Value {
		case "base":
			sp.baseLine = k.Line
			if v.Kind != yaml.ScalarNode || v.Value == "" {
				pr.addf(v.Line, "base: expected the path of a scenario file")
				continue
			}
			sp.Base = v.Value
			if !filepath.IsAbs(sp.Base) && file != "" {
				sp.Base = config.Join(config.Dir(file), sp.Base)
			}
		case "seeds":
			n, err := strconv.Atoi(v.Value)
			if v.Kind != yaml.ScalarNode || err != nil || n < 1 {
				pr.addf(v.Line, "seeds: expected a positive integer (runs per point), got %q", config.Excerpt(v.Value, 40))
				continue
			}
			sp.Seeds = n
			seedsLine = v.Line
		case "seed":
			n, err := strconv.ParseUint(v.Value, 10, 64)
			if v.Kind != yaml.ScalarNode || err != nil {
				pr.addf(v.Line, "seed: expected a non-negative integer, got %q", v.Value)
				continue
			}
			sp.Seed = &n
		case "axes":
			sp.axesLine = k.Line
			if v.Kind != yaml.SequenceNode {
				pr.addf(v.Line, "axes: expected a list of blocks (grid:, zip: or points:)")
				continue
			}
			for _, b := range v.Content {
				if blk, ok := parseBlock(pr, b); ok {
					sp.Blocks = append(sp.Blocks, blk)
				}
			}
		case "name", "description":
		default:
			pr.addf(k.Line, "%s: unknown field (expected base, seeds, seed, axes, name, description)", k.Value)
		}
	}
	if !seen["base"] {
		pr.addf(root.Line, "base: missing (the scenario the axes modify)")
	}
	// A path set by two blocks would make the later one silently win.
	owner := map[string]int{}
	for bi, b := range sp.Blocks {
		for _, path := range b.allPaths() {
			if prev, ok := owner[path]; ok && prev != bi {
				pr.addf(root.Line, "axes: %q is set by block %d and block %d", path, prev+1, bi+1)
			}
			owner[path] = bi
		}
	}
	// The plan's size is judged before anything is enumerated: a grid of 10^9 points or 10^9
	// seeds would otherwise allocate until the process dies.
	if n := pointCount(sp.Blocks); n > config.LimitSweepPoints.Max {
		pr.addf(sp.axesLine, "axes: %v", checkSize(n, int64(sp.Seeds)))
	} else if err := checkSize(n, int64(sp.Seeds)); err != nil {
		line := seedsLine
		if line == 0 {
			line = sp.axesLine
		}
		pr.addf(line, "seeds: %v", err)
	}
	if err := pr.err(); err != nil {
		return nil, err
	}
	return sp, nil
}

func (b Block) allPaths() []string {
	if b.Kind != "points" {
		return b.Paths
	}
	var out []string
	seen := map[string]bool{}
	for _, pt := range b.Points {
		for _, p := range pt {
			if !seen[p.Path] {
				seen[p.Path] = true
				out = append(out, p.Path)
			}
		}
	}
	return out
}

func parseBlock(pr *problems, n *yaml.Node) (Block, bool) {
	if n.Kind != yaml.MappingNode || len(n.Content) != 2 {
		pr.addf(n.Line, "axes: each block is a mapping with exactly one of grid:, zip:, points:")
		return Block{}, false
	}
	kind, body := n.Content[0].Value, n.Content[1]
	blk := Block{Kind: kind}
	ok := true
	switch kind {
	case "grid", "zip":
		if body.Kind != yaml.MappingNode || len(body.Content) == 0 {
			pr.addf(body.Line, "%s: expected a mapping from field path to a list of values", kind)
			return blk, false
		}
		for i := 0; i+1 < len(body.Content); i += 2 {
			k, v := body.Content[i], body.Content[i+1]
			if !checkPath(pr, k) {
				ok = false
			}
			if v.Kind != yaml.SequenceNode || len(v.Content) == 0 {
				pr.addf(v.Line, "%s.%s: expected a non-empty list of values", kind, k.Value)
				ok = false
				continue
			}
			vals := make([]string, len(v.Content))
			for j, e := range v.Content {
				vals[j] = valueText(e)
				pr.at(k.Value, vals[j], k, e)
			}
			blk.Paths = append(blk.Paths, k.Value)
			blk.Values = append(blk.Values, vals)
		}
		if kind == "zip" {
			for i := range blk.Values {
				if len(blk.Values[i]) != len(blk.Values[0]) {
					pr.addf(body.Line, "zip: lists must have the same length (%s has %d, %s has %d)",
						blk.Paths[0], len(blk.Values[0]), blk.Paths[i], len(blk.Values[i]))
					ok = false
				}
			}
		}
	case "points":
		if body.Kind != yaml.SequenceNode || len(body.Content) == 0 {
			pr.addf(body.Line, "points: expected a non-empty list of mappings {path: value, ...}")
			return blk, false
		}
		for _, e := range body.Content {
			if e.Kind != yaml.MappingNode || len(e.Content) == 0 {
				pr.addf(e.Line, "points: each point is a non-empty mapping {path: value, ...}")
				ok = false
				continue
			}
			var pt []Param
			for i := 0; i+1 < len(e.Content); i += 2 {
				if !checkPath(pr, e.Content[i]) {
					ok = false
				}
				p := Param{Path: e.Content[i].Value, Value: valueText(e.Content[i+1])}
				pr.at(p.Path, p.Value, e.Content[i], e.Content[i+1])
				pt = append(pt, p)
			}
			blk.Points = append(blk.Points, pt)
		}
	default:
		pr.addf(n.Content[0].Line, "axes: unknown block %q (expected grid, zip or points)", kind)
		return blk, false
	}
	return blk, ok
}

func checkPath(pr *problems, k *yaml.Node) bool {
	if k.Value == "" || strings.ContainsAny(k.Value, " \t,") {
		pr.addf(k.Line, "%q: expected a scenario field path like mysql.innodb_buffer_pool_size", k.Value)
		return false
	}
	if reserved[k.Value] {
		pr.addf(k.Line, "%s: cannot be an axis (it is an output column; use seeds/seed for seeds)", k.Value)
		return false
	}
	return true
}

// valueText is the YAML text of a value: the scalar as written, or a flow-style rendering of a
// mapping/sequence (e.g. policy: {name: indexed, batch: 256}).
func valueText(n *yaml.Node) string {
	if n.Kind == yaml.ScalarNode {
		return n.Value
	}
	c := *n
	setFlow(&c)
	var buf bytes.Buffer
	enc := yaml.NewEncoder(&buf)
	_ = enc.Encode(&c)
	return strings.TrimSpace(buf.String())
}

func setFlow(n *yaml.Node) {
	n.Style |= yaml.FlowStyle
	n.HeadComment, n.LineComment, n.FootComment = "", "", ""
	for i, ch := range n.Content {
		cc := *ch
		setFlow(&cc)
		n.Content[i] = &cc
	}
}

// Enumerate lists the points of the spec's axes in id order. No axes gives one point with no
// parameters.
func (sp *Spec) Enumerate() []Point {
	combos := [][]Param{nil}
	for _, b := range sp.Blocks {
		var sets [][]Param
		switch b.Kind {
		case "grid":
			sets = [][]Param{nil}
			for i, path := range b.Paths {
				var next [][]Param
				for _, s := range sets {
					for _, v := range b.Values[i] {
						next = append(next, appendParam(s, Param{Path: path, Value: v}))
					}
				}
				sets = next
			}
		case "zip":
			for j := range b.Values[0] {
				var s []Param
				for i, path := range b.Paths {
					s = append(s, Param{Path: path, Value: b.Values[i][j]})
				}
				sets = append(sets, s)
			}
		case "points":
			sets = b.Points
		}
		var next [][]Param
		for _, c := range combos {
			for _, s := range sets {
				next = append(next, appendParam(c, s...))
			}
		}
		combos = next
	}
	pts := make([]Point, len(combos))
	for i, c := range combos {
		pts[i] = Point{ID: i, Params: c}
	}
	return pts
}

func appendParam(s []Param, p ...Param) []Param {
	out := make([]Param, 0, len(s)+len(p))
	return append(append(out, s...), p...)
}

// AxisPaths lists every path the axes set, in first-appearance order (the CSV's parameter
// columns).
func AxisPaths(points []Point) []string {
	var out []string
	seen := map[string]bool{}
	for _, pt := range points {
		for _, p := range pt.Params {
			if !seen[p.Path] {
				seen[p.Path] = true
				out = append(out, p.Path)
			}
		}
	}
	return out
}

// Plan is what a sweep or compare will run: the points, the seeds, and the hash identifying
// them, which every shard records so merge can check they agree.
type Plan struct {
	Kind     string // "sweep" or "compare"
	Base     string // base scenario path
	BaseHash string // configuration hash of the base scenario
	Points   []Point
	Seeds    []uint64
	SpecText string // the spec file, or a synthesized spec for compare
	SpecHash string

	// Filled in when every point is checked (Check, CheckPoints): the largest memory
	// estimate of one run and the point it belongs to, and the points' warnings, each once.
	Peak      runner.Estimate
	PeakPoint int
	Warnings  []*config.FieldError
	// warnedMore marks the Warnings other points gave at the same place with other numbers.
	warnedMore map[int]bool
}

// NewPlan fixes the points and seeds and computes the spec hash. baseHash identifies the base
// scenario's resolved configuration, so two shards with different base files disagree even if
// the spec text is the same.
func NewPlan(kind, base, baseHash string, points []Point, seeds []uint64, specText string) *Plan {
	p := &Plan{Kind: kind, Base: base, BaseHash: baseHash, Points: points, Seeds: seeds, SpecText: specText}
	h := sha256.New()
	type canon struct {
		Kind     string          `json:"kind"`
		BaseHash string          `json:"base_hash"`
		Seeds    []uint64        `json:"seeds"`
		Points   []output.Params `json:"points"`
	}
	c := canon{Kind: kind, BaseHash: baseHash, Seeds: seeds}
	for _, pt := range points {
		c.Points = append(c.Points, pt.Params)
	}
	b, _ := json.Marshal(c)
	h.Write(b)
	p.SpecHash = hex.EncodeToString(h.Sum(nil))[:16]
	return p
}
