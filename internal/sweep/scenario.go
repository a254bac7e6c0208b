package sweep

import (
	"context"
	"errors"
	"fmt"
	"runtime/debug"
	"strings"

	"github.com/ddlsim/ddlsim/model/config"
	"github.com/ddlsim/ddlsim/model/runner"
)

// runScenario is the simulator; a variable so tests can count or slow down runs.
var runScenario = runner.Run

// Base is a sweep's base scenario, read once. Every run decodes it afresh with its point's
// parameters applied as overrides (config.LoadBytesWith), so overrides go through the same
// decoding, defaults and validation as a scenario file, and runs share no mutable state.
type Base struct {
	Path string
	Data []byte
	Seed uint64 // the file's seed
	Hash string // configuration hash of the unmodified scenario
	Sets []string
}

// LoadBase reads and validates a scenario file. sets are extra "path=value" overrides applied
// to every run (the command line's --set).
func LoadBase(path string, sets []string) (*Base, error) {
	path = config.Locate(path) // a shipped scenario by name
	data, err := config.ReadInput(path)
	if err != nil {
		return nil, err
	}
	sc, err := config.LoadBytesWith(path, data, config.Dir(path), sets, nil)
	if err != nil {
		return nil, err
	}
	return &Base{Path: path, Data: data, Seed: sc.Seed, Hash: config.Hash(sc), Sets: sets}, nil
}

// Scenario builds the scenario of one run.
func (b *Base) Scenario(pt Point, seed uint64) (*config.Scenario, error) {
	sets := append([]string(nil), b.Sets...)
	for _, p := range pt.Params {
		sets = append(sets, p.Path+"="+p.Value)
	}
	return config.LoadBytesWith(b.Path, b.Data, config.Dir(b.Path), sets, &seed)
}

// Check loads every point once, so a bad path or value anywhere in the sweep is reported
// (all of them, by point) before any simulation starts.
func (b *Base) Check(plan *Plan) error {
	var msgs []string
	for _, pt := range plan.Points {
		sc, err := b.Scenario(pt, plan.Seeds[0])
		if err == nil {
			plan.note(pt, sc)
		}
		if err != nil {
			msgs = append(msgs, fmt.Sprintf("point %d %s:\n    %s", pt.ID, paramString(pt.Params),
				strings.ReplaceAll(err.Error(), "\n", "\n    ")))
			if len(msgs) == 20 {
				msgs = append(msgs, "(stopping after 20 points)")
				break
			}
		}
	}
	if len(msgs) > 0 {
		return errors.New(strings.Join(msgs, "\n"))
	}
	return nil
}

// note records a checked point's estimate and warnings in the plan.
func (plan *Plan) note(pt Point, sc *config.Scenario) {
	if est := runner.EstimateRun(sc); est.Memory > plan.Peak.Memory {
		plan.Peak, plan.PeakPoint = est, pt.ID
	}
	// A warning is shown once per place: points that differ only in its numbers (the pool
	// sizes of a sweep, each with its own fill) show the first point's, with a count.
	for _, w := range sc.Warnings {
		dup := false
		for i, have := range plan.Warnings {
			if have.File == w.File && have.Line == w.Line && have.Col == w.Col && have.Path == w.Path {
				dup = true
				if have.Error() != w.Error() && !plan.warnedMore[i] {
					c := *have
					c.Msg += " (other points warn here too, with their own numbers)"
					plan.Warnings[i] = &c
					if plan.warnedMore == nil {
						plan.warnedMore = map[int]bool{}
					}
					plan.warnedMore[i] = true
				}
			}
		}
		if !dup {
			plan.Warnings = append(plan.Warnings, w)
		}
	}
}

// ReproduceArgs is the `ddlsim run` command line that reruns one run of the sweep.
func (b *Base) ReproduceArgs(pt Point, seed uint64) []string {
	args := []string{"ddlsim", "run", "--seed", fmt.Sprint(seed)}
	for _, s := range b.Sets {
		args = append(args, "--set", s)
	}
	for _, p := range pt.Params {
		args = append(args, "--set", p.Path+"="+p.Value)
	}
	return append(args, b.Path)
}

// RunFunc returns the RunFunc that simulates the base scenario at a point. An internal
// failure comes back as a *runner.PanicError carrying the command that reproduces it.
func (b *Base) RunFunc() RunFunc {
	return func(ctx context.Context, pt Point, seed uint64) (out *Outcome, err error) {
		defer func() {
			if r := recover(); r != nil {
				err = runner.NewPanicError(r, debug.Stack())
			}
			var pe *runner.PanicError
			if errors.As(err, &pe) {
				pe.Seed, pe.Reproduce = seed, b.ReproduceArgs(pt, seed)
			}
		}()
		sc, err := b.Scenario(pt, seed)
		if err != nil {
			return nil, err
		}
		res, err := runScenario(sc, runner.Options{Context: ctx})
		if err != nil {
			return nil, err
		}
		return &Outcome{ConfigHash: res.ConfigHash, Summary: res.Summary, DDL: res.DDL, Series: &res.Series}, nil
	}
}

// Seeds lists n consecutive seeds from first (nil: the base scenario's seed).
func (b *Base) Seeds(first *uint64, n int) []uint64 {
	s := b.Seed
	if first != nil {
		s = *first
	}
	out := make([]uint64, n)
	for i := range out {
		out[i] = s + uint64(i)
	}
	return out
}

// PlanSpec loads a spec's base scenario and fixes its plan; every point is checked, and every
// problem reported where it is written (CheckPoints).
func PlanSpec(sp *Spec, sets []string) (*Plan, *Base, error) {
	base, err := loadSpecBase(sp, sets)
	if err != nil {
		return nil, nil, err
	}
	plan := NewPlan("sweep", sp.Base, base.Hash, sp.Enumerate(), base.Seeds(sp.Seed, sp.Seeds), string(sp.Text))
	if err := base.CheckPoints(sp, plan); err != nil {
		return nil, nil, err
	}
	return plan, base, nil
}

// PlanCompare is the plan of `ddlsim compare`: a sweep with one axis, policy, and n seeds.
func PlanCompare(base *Base, policies []string, n int, first *uint64) (*Plan, error) {
	if len(policies) == 0 {
		return nil, errors.New("--policies: name at least one policy")
	}
	if err := checkSize(int64(len(policies)), int64(n)); err != nil {
		return nil, fmt.Errorf("--policies × --seeds: %w", err)
	}
	var pts []Point
	var quoted []string
	for i, p := range policies {
		pts = append(pts, Point{ID: i, Params: []Param{{Path: "policy", Value: p}}})
		quoted = append(quoted, p)
	}
	seeds := base.Seeds(first, n)
	spec := fmt.Sprintf("# ddlsim compare\nbase: %s\nseeds: %d\nseed: %d\naxes:\n  - grid:\n      policy: [%s]\n",
		base.Path, n, seeds[0], strings.Join(quoted, ", "))
	plan := NewPlan("compare", base.Path, base.Hash, pts, seeds, spec)
	if err := base.Check(plan); err != nil {
		return nil, err
	}
	return plan, nil
}

// Vary is one --vary KEY=V1,V2,...: a scenario field path (as --set takes it) and its values.
type Vary struct {
	Path   string
	Values []string
}

// PlanVary is the plan of `ddlsim compare --vary`: the grid of the varied settings (the
// first Vary's values outermost), each point the scenario with those fields set, under the
// scenario's own policy unless policies are given (then the grid is crossed with them,
// policy innermost), and n seeds.
func PlanVary(base *Base, vary []Vary, policies []string, n int, first *uint64) (*Plan, error) {
	axes := append([]Vary(nil), vary...)
	if len(policies) > 0 {
		axes = append(axes, Vary{Path: "policy", Values: policies})
	}
	size := int64(1)
	seen := map[string]bool{}
	for _, v := range axes {
		if len(v.Values) == 0 {
			return nil, fmt.Errorf("--vary %s: name at least one value (KEY=V1,V2,...)", v.Path)
		}
		if seen[v.Path] {
			return nil, fmt.Errorf("--vary %s: the key is given twice; list all its values in one --vary", v.Path)
		}
		seen[v.Path] = true
		size *= int64(len(v.Values))
		if size > 1<<20 {
			break
		}
	}
	if err := checkSize(size, int64(n)); err != nil {
		return nil, fmt.Errorf("--vary × --seeds: %w", err)
	}
	var pts []Point
	idx := make([]int, len(axes))
	for {
		var ps []Param
		for a, v := range axes {
			ps = append(ps, Param{Path: v.Path, Value: v.Values[idx[a]]})
		}
		pts = append(pts, Point{ID: len(pts), Params: ps})
		a := len(axes) - 1
		for ; a >= 0; a-- {
			if idx[a]++; idx[a] < len(axes[a].Values) {
				break
			}
			idx[a] = 0
		}
		if a < 0 {
			break
		}
	}
	seeds := base.Seeds(first, n)
	var spec strings.Builder
	fmt.Fprintf(&spec, "# ddlsim compare --vary\nbase: %s\nseeds: %d\nseed: %d\naxes:\n  - grid:\n", base.Path, n, seeds[0])
	for _, v := range axes {
		fmt.Fprintf(&spec, "      %s: [%s]\n", v.Path, strings.Join(v.Values, ", "))
	}
	plan := NewPlan("compare", base.Path, base.Hash, pts, seeds, spec.String())
	if err := base.Check(plan); err != nil {
		return nil, err
	}
	return plan, nil
}
