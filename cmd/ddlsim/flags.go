package main

import (
	"strconv"
	"strings"
)

// setList collects repeatable --set path=value flags (and --policy NAME, which appends
// policy=NAME), keeping command-line order: a later override wins.
type setList struct{ sets *[]string }

func (s setList) String() string {
	if s.sets == nil {
		return ""
	}
	return strings.Join(*s.sets, " ")
}

func (s setList) Set(v string) error {
	if !strings.Contains(v, "=") {
		return usagef("--set wants path=value, got %q", v)
	}
	*s.sets = append(*s.sets, v)
	return nil
}

type policyFlag struct{ sets *[]string }

func (p policyFlag) String() string { return "" }

func (p policyFlag) Set(v string) error {
	*p.sets = append(*p.sets, "policy="+v)
	return nil
}

// seedFlag is an optional seed: nil unless given, so the scenario's own seed stands.
type seedFlag struct{ seed **uint64 }

func (s seedFlag) String() string {
	if s.seed == nil || *s.seed == nil {
		return ""
	}
	return strconv.FormatUint(**s.seed, 10)
}

func (s seedFlag) Set(v string) error {
	n, err := strconv.ParseUint(v, 10, 64)
	if err != nil {
		return usagef("--seed wants a non-negative integer, got %q", v)
	}
	*s.seed = &n
	return nil
}
