package config

import (
	"fmt"
	"sort"
	"strings"
)

// FieldError is one problem in a scenario: where it is, which field, the offending value and
// what was expected. It prints as
//
//	file:line:col: path: bad value "x": expected ...
//
// which editors and terminals turn into a jump-to-location link.
type FieldError struct {
	File  string // scenario or profile file; "--set" for command-line overrides
	Line  int    // 1-based; 0 when the field has no position (a default, an override)
	Col   int    // 1-based; 0 when unknown
	Path  string // YAML path, e.g. "workload[0].sysbench.threads"
	Value string // offending value as written; "" when not about one value
	Msg   string // what was expected
}

func (e *FieldError) Error() string { return e.format("", "bad value ") }

// Warning formats e as a warning: FILE:LINE:COL: warning: PATH: "value": message.
func (e *FieldError) Warning() string { return e.format("warning: ", "") }

func (e *FieldError) format(kind, valuePrefix string) string {
	var b strings.Builder
	if e.File != "" {
		b.WriteString(e.File)
		if e.Line > 0 {
			fmt.Fprintf(&b, ":%d", e.Line)
			if e.Col > 0 {
				fmt.Fprintf(&b, ":%d", e.Col)
			}
		}
		b.WriteString(": ")
	}
	b.WriteString(kind)
	// Path, value and message can carry foreign text (a key, a value, a line of a file that
	// is not a scenario): each is cut to a short excerpt.
	if e.Path != "" {
		b.WriteString(Excerpt(e.Path, excerptPath))
		b.WriteString(": ")
	}
	if e.Value != "" {
		if v := cut(e.Value, excerptValue); v != e.Value {
			fmt.Fprintf(&b, "%s%q (%d bytes): ", valuePrefix, v+"…", len(e.Value))
		} else {
			fmt.Fprintf(&b, "%s%q: ", valuePrefix, e.Value)
		}
	}
	b.WriteString(Excerpt(e.Msg, excerptMsg))
	return b.String()
}

// Errors is every problem found in one load; loading never stops at the first.
type Errors []*FieldError

func (es Errors) Error() string {
	lines := make([]string, len(es))
	for i, e := range es {
		lines[i] = e.Error()
	}
	return strings.Join(lines, "\n")
}

// Unwrap lets errors.As find an individual *FieldError.
func (es Errors) Unwrap() []error {
	out := make([]error, len(es))
	for i, e := range es {
		out[i] = e
	}
	return out
}

// Sorted orders errors by file (in order of first appearance, so the scenario comes before
// its profile and both before --set), then line and column; equal positions keep the order
// they were found in.
func (es Errors) Sorted() Errors {
	fileRank := map[string]int{}
	for _, e := range es {
		if _, ok := fileRank[e.File]; !ok {
			fileRank[e.File] = len(fileRank)
		}
	}
	out := append(Errors(nil), es...)
	sort.SliceStable(out, func(i, j int) bool {
		a, b := out[i], out[j]
		if fileRank[a.File] != fileRank[b.File] {
			return fileRank[a.File] < fileRank[b.File]
		}
		if la, lb := lineKey(a.Line), lineKey(b.Line); la != lb {
			return la < lb
		}
		return a.Col < b.Col
	})
	return out
}

// lineKey puts position-less errors (defaults, cross-field checks) after positioned ones.
func lineKey(l int) int {
	if l <= 0 {
		return int(^uint(0) >> 1)
	}
	return l
}
