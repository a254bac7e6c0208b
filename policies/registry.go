package policies

import (
	"fmt"

	"github.com/ddlsim/ddlsim/model/config"
	"github.com/ddlsim/ddlsim/model/server"
)

// Entry is one registered policy: its YAML kind (name, one-line doc, typed parameter block)
// and how it is built for a server.
type Entry struct {
	config.Kind
	Build func(srv *server.Server, params config.Params) (server.Policy, error)
}

// registry: adding a policy is one file plus one line here.
var registry = []Entry{
	{config.Kind{Name: "fullscan", Doc: "community 8.0 before 8.0.23: whole-list scans, FLUSH_WRITE restarts from the tail",
		New: func() config.Params { return new(FullscanParams) }}, newFullscan},
	{config.Kind{Name: "lazy", Doc: "8.0.23+ lazy drop: space versions, no scan for drop/truncate; flushes still scan",
		New: func() config.Params { return new(FullscanParams) }}, newLazy},
	{config.Kind{Name: "percona_lazy", Doc: "Percona Server 5.5 innodb_lazy_drop_table: DROP marks the pages (one LRU walk + a chunk AHI pass), frees them when met",
		New: func() config.Params { return new(FullscanParams) }}, newPerconaLazy},
	{config.Kind{Name: "indexed", Doc: "Faster DDL (inferred): per-space/observer page index, batch flush, short holds",
		New: func() config.Params { return new(IndexedParams) }}, newIndexed},
}

// Kinds lists the policies, for the assembly's config.Schema (model/runner).
func Kinds() []config.Kind {
	out := make([]config.Kind, len(registry))
	for i, e := range registry {
		out[i] = e.Kind
	}
	return out
}

// Names lists the registered policies, sorted.
func Names() []string {
	var n []string
	for _, k := range config.PolicyKinds() {
		n = append(n, k.Name)
	}
	return n
}

// Factory returns the factory of the policy spec names, with its parameters.
func Factory(spec config.PolicySpec) (server.PolicyFactory, error) {
	for _, e := range registry {
		if e.Name != spec.Name {
			continue
		}
		params := spec.Params
		if params == nil {
			params = e.New()
		}
		return func(srv *server.Server) (server.Policy, error) { return e.Build(srv, params) }, nil
	}
	if _, registered := config.PolicyKind(spec.Name); !registered {
		return nil, fmt.Errorf("unknown policy %q", spec.Name)
	}
	return nil, fmt.Errorf("policy %q is registered with config but has no builder in policies", spec.Name)
}

// opt returns *p, or def when the parameter was not given.
func opt[T any](p *T, def T) T {
	if p == nil {
		return def
	}
	return *p
}
