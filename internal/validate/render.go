package validate

import (
	"fmt"
	"math"
	"regexp"
	"sort"
	"strconv"
	"strings"
)

// Markers in docs/validation.md: the text between
//
//	<!-- validate table=NAME -->
//	<!-- /validate -->
//
// is the rendered table NAME (the rows of the scenarios whose annotation names it), and
// between `<!-- validate constants=PROFILE -->` and `<!-- /validate -->` the provenance table
// of a hardware profile.
var markerRE = regexp.MustCompile(`(?s)<!-- validate (table|constants)=(\S+) -->\n(.*?)<!-- /validate -->`)

// Render returns every block the results define, keyed "table=NAME" / "constants=PROFILE".
func Render(r *Results) map[string]string {
	out := map[string]string{}
	var order []string
	byTable := map[string][]Row{}
	for _, row := range r.Rows {
		if _, ok := byTable[row.Table]; !ok {
			order = append(order, row.Table)
		}
		byTable[row.Table] = append(byTable[row.Table], row)
	}
	for _, t := range order {
		out["table="+t] = renderTable(byTable[t])
	}
	for _, p := range r.Constants {
		out["constants="+p.Name] = renderConstants(p)
	}
	return out
}

func renderTable(rows []Row) string {
	var b strings.Builder
	b.WriteString("| point | statistic | published / measured | ddlsim | ddlsim / measured | role | source |\n")
	b.WriteString("|---|---|---|---|---|---|---|\n")
	for _, r := range rows {
		point := r.Point
		if r.Policy != "" {
			point += " (`" + r.Policy + "`)"
		}
		meas := "—"
		if r.Measured != nil {
			meas = fmtNum(*r.Measured, -1)
		}
		switch r.Bound {
		case "upper":
			meas = "< " + meas
		case "lower":
			meas = "> " + meas
		}
		role := r.Role
		if r.Fits != "" {
			role += ": " + r.Fits
		}
		src := r.Source
		if r.Note != "" {
			src += " — " + r.Note
		}
		fmt.Fprintf(&b, "| %s | `%s` | %s | %s | %s | %s | %s |\n", esc(point), r.Stat, meas, simText(r),
			ratioText(r), esc(role), esc(src))
	}
	return b.String()
}

// simText is "mean ± half (n seeds)" with the measured value's decimals, at least three
// significant digits.
func simText(r Row) string {
	m, h := float64(r.Mean), float64(r.Half)
	if math.IsNaN(m) {
		return "—"
	}
	d := sigDecimals(m, 3)
	if r.Measured != nil {
		d = max(d, decimals(*r.Measured))
	}
	s := fmtNum(m, d)
	if !math.IsNaN(h) {
		s += " ± " + fmtNum(h, d)
	}
	if len(r.Sim) > 1 {
		s += fmt.Sprintf(" (%d seeds)", len(r.Sim))
	}
	return s
}

func ratioText(r Row) string {
	v := float64(r.Ratio)
	if math.IsNaN(v) {
		return "—"
	}
	if math.Abs(v) < 10 {
		return fmtNum(v, 2)
	}
	return fmtNum(v, sigDecimals(v, 3))
}

func renderConstants(p Profile) string {
	var b strings.Builder
	fmt.Fprintf(&b, "Profile `%s`", p.Name)
	if p.File != "" {
		fmt.Fprintf(&b, " (%s)", p.File)
	}
	b.WriteString(":\n\n| constant | value | status | fitted on / source |\n|---|---|---|---|\n")
	for _, e := range p.Entries {
		src := e.Source
		if e.On != "" {
			src = "on " + e.On
			if e.Source != "" {
				src += "; " + e.Source
			}
		}
		fmt.Fprintf(&b, "| `%s` | %s | %s | %s |\n", e.Name, esc(e.Value), e.Status, esc(src))
	}
	return b.String()
}

// UpdateDoc replaces every marked block of doc with its rendering. A marker with no rendering,
// or a rendering with no marker, is an error: the doc and the results must describe the same
// tables.
func UpdateDoc(doc string, blocks map[string]string) (string, error) {
	used := map[string]bool{}
	var missing []string
	out := markerRE.ReplaceAllStringFunc(doc, func(m string) string {
		sub := markerRE.FindStringSubmatch(m)
		key := sub[1] + "=" + sub[2]
		body, ok := blocks[key]
		if !ok {
			missing = append(missing, key)
			return m
		}
		used[key] = true
		return fmt.Sprintf("<!-- validate %s -->\n%s<!-- /validate -->", key, body)
	})
	var unused []string
	for k := range blocks {
		if !used[k] {
			unused = append(unused, k)
		}
	}
	sort.Strings(unused)
	var errs []string
	if len(missing) > 0 {
		errs = append(errs, "markers with nothing in the results: "+strings.Join(missing, ", "))
	}
	if len(unused) > 0 {
		errs = append(errs, "results with no marker in the doc (add `<!-- validate KEY -->` … `<!-- /validate -->`): "+strings.Join(unused, ", "))
	}
	if len(errs) > 0 {
		return "", fmt.Errorf("%s", strings.Join(errs, "; "))
	}
	return out, nil
}

// Blocks returns the marked blocks of doc as they are.
func Blocks(doc string) map[string]string {
	out := map[string]string{}
	for _, sub := range markerRE.FindAllStringSubmatch(doc, -1) {
		out[sub[1]+"="+sub[2]] = sub[3]
	}
	return out
}

// decimals is the number of decimals of v's shortest representation.
func decimals(v float64) int {
	s := strconv.FormatFloat(v, 'f', -1, 64)
	if i := strings.IndexByte(s, '.'); i >= 0 {
		return len(s) - i - 1
	}
	return 0
}

// sigDecimals is the decimals that show v to n significant digits.
func sigDecimals(v float64, n int) int {
	if v == 0 || math.IsNaN(v) || math.IsInf(v, 0) {
		return 0
	}
	return max(0, n-1-int(math.Floor(math.Log10(math.Abs(v)))))
}

// fmtNum prints v with d decimals (d < 0: the shortest representation), thousands separated
// by commas.
func fmtNum(v float64, d int) string {
	s := strconv.FormatFloat(v, 'f', d, 64)
	neg := strings.HasPrefix(s, "-")
	s = strings.TrimPrefix(s, "-")
	intPart, frac, _ := strings.Cut(s, ".")
	if len(intPart) > 4 {
		var b strings.Builder
		for i, c := range intPart {
			if i > 0 && (len(intPart)-i)%3 == 0 {
				b.WriteByte(',')
			}
			b.WriteRune(c)
		}
		intPart = b.String()
	}
	if frac != "" {
		intPart += "." + frac
	}
	if neg {
		intPart = "-" + intPart
	}
	return intPart
}

func esc(s string) string { return strings.ReplaceAll(s, "|", `\|`) }
