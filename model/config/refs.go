package config

import (
	"sort"
	"strconv"

	"gopkg.in/yaml.v3"
)

// YAML forms of the schema's polymorphic values. The scenario loader decodes these itself
// (decode.go) so it can report positions inside them; the yaml.Unmarshaler methods here
// serve everyone who decodes a fragment with plain yaml.v3 (sweep specs, tests).

// UnmarshalYAML accepts a path (scalar) or an inline profile (mapping).
func (h *HardwareRef) UnmarshalYAML(n *yaml.Node) error {
	if n.Kind == yaml.ScalarNode {
		*h = HardwareRef{Path: n.Value}
		return nil
	}
	var d decoder
	d.decode(n, reflectValueOf(h), "hardware")
	if len(d.errs) > 0 {
		return d.errs
	}
	return nil
}

// MarshalYAML writes the inline profile when there is one (the canonical form), else the
// path.
func (h HardwareRef) MarshalYAML() (any, error) {
	if h.Inline != nil {
		return h.Inline, nil
	}
	return h.Path, nil
}

// IsZero reports whether neither a path nor a profile is set.
func (h HardwareRef) IsZero() bool { return h.Path == "" && h.Inline == nil }

// UnmarshalYAML accepts `fullscan` or `{name: indexed, batch: 256}`.
func (p *PolicySpec) UnmarshalYAML(n *yaml.Node) error {
	var d decoder
	d.decode(n, reflectValueOf(p), "policy")
	if len(d.errs) > 0 {
		return d.errs
	}
	return nil
}

// MarshalYAML writes a bare name when there are no parameters, else a mapping with name
// first and the parameters in sorted order.
func (p PolicySpec) MarshalYAML() (any, error) {
	if len(p.Params) == 0 {
		return p.Name, nil
	}
	m := &yaml.Node{Kind: yaml.MappingNode}
	m.Content = append(m.Content, plainScalar("name"), plainScalar(p.Name))
	for _, k := range sortedKeys(p.Params) {
		m.Content = append(m.Content, plainScalar(k), &yaml.Node{Kind: yaml.ScalarNode, Value: p.Params[k]})
	}
	return m, nil
}

// String is the policy as a user would write it on the command line.
func (p PolicySpec) String() string {
	s := p.Name
	for _, k := range sortedKeys(p.Params) {
		s += " " + k + "=" + p.Params[k]
	}
	return s
}

// Param returns a parameter and whether it was given.
func (p PolicySpec) Param(key string) (string, bool) {
	v, ok := p.Params[key]
	return v, ok
}

func sortedKeys(m map[string]string) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}

// UnmarshalYAML accepts a two-element list [q, duration].
func (q *QuantilePoint) UnmarshalYAML(n *yaml.Node) error {
	var d decoder
	d.decode(n, reflectValueOf(q), "")
	if len(d.errs) > 0 {
		return d.errs
	}
	return nil
}

// MarshalYAML writes the flow form [0.99, 1ms].
func (q QuantilePoint) MarshalYAML() (any, error) {
	return &yaml.Node{Kind: yaml.SequenceNode, Style: yaml.FlowStyle, Content: []*yaml.Node{
		{Kind: yaml.ScalarNode, Value: strconv.FormatFloat(q.Q, 'g', -1, 64)},
		plainScalar(q.Value.String()),
	}}, nil
}
