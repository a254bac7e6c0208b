package policies_test

import (
	"fmt"
	"testing"

	"github.com/ddlsim/ddlsim/model/config"
	"github.com/ddlsim/ddlsim/model/maint"
	"github.com/ddlsim/ddlsim/model/server"
	"github.com/ddlsim/ddlsim/model/version"
	"github.com/ddlsim/ddlsim/sim"
)

// The worked example of docs/policies.md, "Writing a new policy": a policy that is 8.0.23's
// lazy drop plus a flush that visits only its target's pages and writes them in doublewrite
// batches, built on model/maint's walks and toolkit. In policies/ it would be one file plus one registry line;
// here it is checked by the conformance suite like the registered policies.

// MyPolicy is 8.0.23's lazy drop plus an indexed flush in batches of `batch` pages.
type MyPolicy struct {
	batch int
}

// MyPolicyParams are mypolicy's parameters; YAML: policy: {name: mypolicy, batch: 64}.
type MyPolicyParams struct {
	Batch *int `yaml:"batch,omitempty"` // pages per mutex hold (default 128)
}

func (*MyPolicyParams) Defaults(*config.Scenario, config.Defaulter) {}

func (p *MyPolicyParams) Check(sc *config.Scenario, c *config.Checker) {
	if p.Batch != nil {
		c.Field("batch", *p.Batch, config.Between(1, 1<<20))
	}
}

func newMyPolicy(srv *server.Server, params config.Params) (server.Policy, error) {
	x := &MyPolicy{batch: 128}
	if b := params.(*MyPolicyParams).Batch; b != nil {
		x.batch = *b
	}
	return x, nil
}

func (x *MyPolicy) Name() string { return "mypolicy" }

// FreesStale: dropped pages stay in the pool, stale, and the pool frees them where it meets them.
func (x *MyPolicy) FreesStale() bool { return true }

// Stale is called on every page lookup with the page's space and the space version it was
// read at: O(1), no allocation, no side effect.
func (x *MyPolicy) Stale(sp *server.Space, pageVersion uint16) bool {
	return sp.Deleted || uint16(sp.Version) != pageVersion
}

// DropPages scans nothing: the caller marked the space deleted or bumped its version, so its
// pages are stale. DROP/TRUNCATE still clean the AHI, as 8.0.23+ does.
func (x *MyPolicy) DropPages(t *server.Thread, sp *server.Space, op version.Op) (st server.ScanStats) {
	if (op == version.OpDropTable || op == version.OpTruncateTable) && t.Srv.AHI {
		st.Add(maint.DropAHIForTable(t, sp.ID))
	}
	return st
}

// FlushPages collects the target's dirty pages from the space's page index (charged per node,
// the LRU mutex held per batch), then writes them batch by batch; a page that was fixed is
// tried again after 1 ms. It returns when they are on disk.
func (x *MyPolicy) FlushPages(t *server.Thread, sp *server.Space, obs uint16, op version.Op) (st server.ScanStats) {
	sel := maint.Select{Space: sp.ID, Observer: obs, Dirty: true}
	for _, in := range t.Srv.Inst {
		todo := maint.CollectPages(t, in, sel, x.batch, &st)
		for len(todo) > 0 {
			k := min(x.batch, len(todo))
			left := maint.FlushPageBatch(t, in, todo[:k], sel, &st)
			todo = append(todo[k:], left...)
			if len(left) == k {
				st.Sleeps++
				t.Sleep(sim.Millisecond) // nothing could be written: wait for the fixes to go
			}
		}
	}
	if obs != 0 {
		st.Add(maint.WaitObserver(t, obs))
	} else {
		t.FsyncData()
	}
	return st
}

func TestWorkedExamplePolicy(t *testing.T) {
	factory := func(srv *server.Server) (server.Policy, error) { return newMyPolicy(srv, &MyPolicyParams{}) }
	for _, op := range server.Ops {
		for seed := uint64(1); seed <= 2; seed++ {
			t.Run(fmt.Sprintf("%s/%d", op.Op, seed), func(t *testing.T) {
				for _, v := range conformance(t, "mypolicy", factory, op, seed) {
					t.Error(v)
				}
			})
		}
	}
}
