package policies

import (
	"fmt"
	"sort"
	"strconv"
	"strings"

	"github.com/ddlsim/ddlsim/model/server"
)

// Factory builds a policy from its YAML parameters (every key of the policy mapping except
// name), for a server.
type Factory func(srv *server.Server, params map[string]string) (server.Policy, error)

// registry: adding a policy is one file plus one line here.
var registry = map[string]Factory{
	"fullscan": newFullscan,
	"lazy":     newLazy,
	"indexed":  newIndexed,
}

// Names lists the registered policies, sorted.
func Names() []string {
	n := make([]string, 0, len(registry))
	for k := range registry {
		n = append(n, k)
	}
	sort.Strings(n)
	return n
}

// New builds the named policy.
func New(name string, srv *server.Server, params map[string]string) (server.Policy, error) {
	f, ok := registry[name]
	if !ok {
		return nil, fmt.Errorf("unknown policy %q (known: %s)", name, strings.Join(Names(), ", "))
	}
	return f(srv, params)
}

// params reads typed parameters and reports unknown keys.
type params struct {
	m    map[string]string
	used map[string]bool
	err  []string
}

func newParams(m map[string]string) *params { return &params{m: m, used: map[string]bool{}} }

func (p *params) bool(key string, def bool) bool {
	p.used[key] = true
	v, ok := p.m[key]
	if !ok {
		return def
	}
	b, err := strconv.ParseBool(v)
	if err != nil {
		p.err = append(p.err, fmt.Sprintf("%s: %q is not a boolean", key, v))
	}
	return b
}

func (p *params) int(key string, def int) int {
	p.used[key] = true
	v, ok := p.m[key]
	if !ok {
		return def
	}
	n, err := strconv.Atoi(v)
	if err != nil || n <= 0 {
		p.err = append(p.err, fmt.Sprintf("%s: %q is not a positive integer", key, v))
	}
	return n
}

func (p *params) done(policy string) error {
	for k := range p.m {
		if !p.used[k] {
			p.err = append(p.err, fmt.Sprintf("unknown parameter %q", k))
		}
	}
	if len(p.err) == 0 {
		return nil
	}
	sort.Strings(p.err)
	return fmt.Errorf("policy %s: %s", policy, strings.Join(p.err, "; "))
}
