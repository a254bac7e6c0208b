package sweep

import (
	"errors"
	"fmt"
	"io/fs"
	"sort"
	"strings"

	"github.com/ddlsim/ddlsim/model/config"
)

// CheckPoints loads every point of plan once (as Check does) and reports each distinct problem
// once, where it is written, as config.Errors:
//
//   - a bad swept value (an override the scenario rejects) at that value's line and column in
//     the spec, an unknown path at the path;
//   - a problem positioned in another file (the base scenario, a hardware profile) at that
//     place, with the first point it occurs in spelled out;
//   - anything else (a cross-field check without a position) at the spec's axes: line, with
//     the first point spelled out.
//
// Each is followed by the points it occurs in. nil when every point loads.
func (b *Base) CheckPoints(sp *Spec, plan *Plan) error {
	type finding struct {
		fe     *config.FieldError
		points []int
		show   string // the first point spelled out, for problems not at a swept value
	}
	var order []*finding
	byKey := map[string]*finding{}
	add := func(fe *config.FieldError, pt Point, spell bool) {
		k := fe.Error()
		f := byKey[k]
		if f == nil {
			f = &finding{fe: fe}
			if spell {
				f.show = paramString(pt.Params)
			}
			byKey[k] = f
			order = append(order, f)
		}
		f.points = append(f.points, pt.ID)
	}
	for _, pt := range plan.Points {
		sc, err := b.Scenario(pt, plan.Seeds[0])
		if err == nil {
			plan.note(pt, sc)
			continue
		}
		var ces config.Errors
		if !errors.As(err, &ces) {
			add(&config.FieldError{File: sp.File, Line: sp.axesLine, Msg: err.Error()}, pt, true)
			continue
		}
		for _, fe := range ces {
			switch p, ok := culprit(pt, fe); {
			case ok && (fe.File == "--set" || fe.Line == 0):
				// A problem with the field itself (an unknown key) is at the path; one with
				// the value, or inside it (policy.name of a policy), at the value.
				line, col := sp.ValuePos(p.Path, p.Value)
				if fe.Path == p.Path && fe.Value == "" {
					line, col = sp.PathPos(p.Path)
				}
				add(&config.FieldError{File: sp.File, Line: line, Col: col, Path: fe.Path, Value: fe.Value, Msg: fe.Msg}, pt, false)
			case fe.Line > 0:
				add(fe, pt, true)
			default:
				add(&config.FieldError{File: sp.File, Line: sp.axesLine, Msg: fe.Error()}, pt, true)
			}
		}
	}
	if len(order) == 0 {
		return nil
	}
	out := make(config.Errors, 0, len(order))
	for _, f := range order {
		fe := *f.fe
		fe.Msg += pointsNote(f.points, len(plan.Points), f.show)
		out = append(out, &fe)
	}
	// The spec's own lines first, in file order; then the other files' problems as found.
	sort.SliceStable(out, func(i, j int) bool {
		a, c := out[i], out[j]
		if (a.File == sp.File) != (c.File == sp.File) {
			return a.File == sp.File
		}
		if a.File == sp.File && a.Line != c.Line {
			return a.Line < c.Line
		}
		return false
	})
	return out
}

// culprit is the parameter of pt that an override error is about: the one whose path is the
// error's path or a prefix of it (policy for policy.name, data[0] for data[0].rows).
func culprit(pt Point, fe *config.FieldError) (Param, bool) {
	best, found := Param{}, false
	for _, p := range pt.Params {
		if fe.Path == p.Path || strings.HasPrefix(fe.Path, p.Path+".") || strings.HasPrefix(fe.Path, p.Path+"[") {
			if !found || len(p.Path) > len(best.Path) {
				best, found = p, true
			}
		}
	}
	return best, found
}

// pointsNote lists the points a problem occurs in, the first spelled out when show is given:
// " (point 3)", " (point 3 {policy=lazy})",
// " (points 2, 3, 6, 7 — 4 of 8)", " (points 0, 1, 2, 3, 4, 5, … — 20 of 48)".
func pointsNote(ids []int, total int, show string) string {
	if len(ids) == 1 {
		if show != "" {
			return fmt.Sprintf(" (point %d %s)", ids[0], show)
		}
		return fmt.Sprintf(" (point %d)", ids[0])
	}
	var b strings.Builder
	b.WriteString(" (points ")
	for i, id := range ids {
		if i == 6 {
			b.WriteString(", …")
			break
		}
		if i > 0 {
			b.WriteString(", ")
		}
		fmt.Fprint(&b, id)
	}
	fmt.Fprintf(&b, " — %d of %d", len(ids), total)
	if show != "" {
		fmt.Fprintf(&b, "; point %d is %s", ids[0], show)
	}
	b.WriteString(")")
	return b.String()
}

// CheckSpec does everything `ddlsim sweep` checks before running, without running: the spec
// (LoadSpec), its base scenario with the command line's overrides, and every point. Problems
// are config.Errors, each at the line that causes it (see CheckPoints). It returns the plan.
func CheckSpec(path string, sets []string) (*Plan, error) {
	sp, err := LoadSpec(path)
	if err != nil {
		return nil, err
	}
	plan, _, err := PlanSpec(sp, sets)
	return plan, err
}

// loadSpecBase loads a spec's base scenario; a missing or unreadable base is reported at the
// spec's base: line.
func loadSpecBase(sp *Spec, sets []string) (*Base, error) {
	base, err := LoadBase(sp.Base, sets)
	var pe *fs.PathError
	if errors.As(err, &pe) && sp.File != "" {
		return nil, config.Errors{{File: sp.File, Line: sp.baseLine, Path: "base", Msg: err.Error()}}
	}
	return base, err
}
