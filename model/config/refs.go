package config

import (
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

// MarshalYAML writes a bare name when no parameter is set, else a mapping with name first
// and the parameters in their block's order.
func (p PolicySpec) MarshalYAML() (any, error) {
	params, err := paramNodes(p.Params)
	if err != nil {
		return nil, err
	}
	if len(params) == 0 {
		return p.Name, nil
	}
	m := &yaml.Node{Kind: yaml.MappingNode}
	m.Content = append(m.Content, plainScalar("name"), plainScalar(p.Name))
	m.Content = append(m.Content, params...)
	return m, nil
}

// String is the policy as a user would write it on the command line: the name, then each
// parameter that is set as key=value.
func (p PolicySpec) String() string {
	s := p.Name
	params, _ := paramNodes(p.Params)
	for i := 0; i+1 < len(params); i += 2 {
		s += " " + params[i].Value + "=" + params[i+1].Value
	}
	return s
}

// paramNodes is the key/value node list a parameter block marshals to (empty when nothing
// is set).
func paramNodes(p Params) ([]*yaml.Node, error) {
	if p == nil {
		return nil, nil
	}
	var n yaml.Node
	if err := n.Encode(p); err != nil {
		return nil, err
	}
	if n.Kind != yaml.MappingNode {
		return nil, nil
	}
	return n.Content, nil
}

// UnmarshalYAML decodes a schedule entry as the loader does.
func (e *DDLEvent) UnmarshalYAML(n *yaml.Node) error {
	var d decoder
	d.decode(n, reflectValueOf(e), "")
	if len(d.errs) > 0 {
		return d.errs
	}
	return nil
}

// ddlCommon is DDLEvent without its methods, for encoding the common fields.
type ddlCommon DDLEvent

// MarshalYAML writes the common scheduling fields, then the operation's own.
func (e DDLEvent) MarshalYAML() (any, error) {
	var n yaml.Node
	if err := n.Encode(ddlCommon(e)); err != nil {
		return nil, err
	}
	if e.After != "" { // at: {after: previous, delay: D}
		for i := 0; i+1 < len(n.Content); i += 2 {
			if n.Content[i].Value == "at" {
				var m yaml.Node
				if err := m.Encode(struct {
					After string   `yaml:"after"`
					Delay Duration `yaml:"delay"`
				}{e.After, e.At}); err != nil {
					return nil, err
				}
				m.Style = yaml.FlowStyle
				n.Content[i+1] = &m
			}
		}
	}
	params, err := paramNodes(e.Params)
	if err != nil {
		return nil, err
	}
	n.Content = append(n.Content, params...)
	return &n, nil
}

// UnmarshalYAML decodes `KIND: {parameters}` as the loader does.
func (w *Workload) UnmarshalYAML(n *yaml.Node) error {
	var d decoder
	d.decode(n, reflectValueOf(w), "")
	if len(d.errs) > 0 {
		return d.errs
	}
	return nil
}

// MarshalYAML writes the one-key mapping KIND: {parameters}.
func (w Workload) MarshalYAML() (any, error) {
	var v yaml.Node
	if w.Params == nil {
		v = yaml.Node{Kind: yaml.MappingNode}
	} else if err := v.Encode(w.Params); err != nil {
		return nil, err
	}
	return &yaml.Node{Kind: yaml.MappingNode, Content: []*yaml.Node{plainScalar(w.Kind), &v}}, nil
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
