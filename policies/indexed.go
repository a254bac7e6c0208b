package policies

import (
	"github.com/ddlsim/ddlsim/model/config"
	"github.com/ddlsim/ddlsim/model/maint"
	"github.com/ddlsim/ddlsim/model/server"
	"github.com/ddlsim/ddlsim/model/version"
	"github.com/ddlsim/ddlsim/sim"
)

// Indexed is the "Faster DDL" mechanism as reference/innodb.md §6 infers it (the vendor
// publishes no source): the pool keeps, per tablespace, an index of its pages, so a DDL visits
// only its target's pages; dropping frees them in batches, and flushing writes them in batches
// through the doublewrite batch path (no single-page sync writes, no restart from the tail); a
// list mutex is held only per short batch.
//
// It is written on the policy toolkit (model/maint/toolkit.go): the per-space index is the
// pool's intrusive per-space page list (dirty pages first), walked with the LRU mutex held for
// at most one batch of nodes at a time and charged per node; the targets are ordered by page
// number (a search-tree insertion, charged) so writes go out in file order; each batch is
// removed or written under one hold of the list mutexes. A page that is fixed (I/O or a
// modification in flight) is retried after 1 ms.
type Indexed struct {
	batch int
}

// IndexedParams are indexed's parameters.
type IndexedParams struct {
	// Batch is the pages handled per mutex hold (default 256).
	Batch *int `yaml:"batch,omitempty"`
}

func (*IndexedParams) Defaults(*config.Scenario, config.Defaulter) {}

func (p *IndexedParams) Check(sc *config.Scenario, c *config.Checker) {
	if p.Batch != nil {
		c.Field("batch", *p.Batch, config.Between(1, 1<<20))
	}
}

func newIndexed(srv *server.Server, params config.Params) (server.Policy, error) {
	return &Indexed{batch: opt(params.(*IndexedParams).Batch, 256)}, nil
}

func (x *Indexed) Name() string { return "indexed" }

func (x *Indexed) FreesStale() bool { return false }

func (x *Indexed) Stale(*server.Space, uint16) bool { return false }

// retryWait is the pause before a fixed page is tried again, and retries bounds the tries.
const (
	retryWait = sim.Millisecond
	retries   = 100
)

func (x *Indexed) DropPages(t *server.Thread, sp *server.Space, op version.Op) (st server.ScanStats) {
	for _, in := range t.Srv.Inst {
		var left []maint.Target
		pages := maint.CollectPages(t, in, maint.Select{Space: sp.ID}, x.batch, &st)
		for len(pages) > 0 {
			k := min(x.batch, len(pages))
			left = append(left, maint.RemovePages(t, in, pages[:k], &st)...)
			pages = pages[k:]
		}
		for try := 0; len(left) > 0 && try < retries; try++ {
			st.Sleeps++
			t.Sleep(retryWait)
			left = maint.RemovePages(t, in, left, &st)
		}
	}
	return st
}

func (x *Indexed) FlushPages(t *server.Thread, sp *server.Space, obs uint16, op version.Op) (st server.ScanStats) {
	sel := maint.Select{Space: sp.ID, Observer: obs, Dirty: true}
	for _, in := range t.Srv.Inst {
		var left []maint.Target
		pages := maint.CollectPages(t, in, sel, x.batch, &st)
		for len(pages) > 0 {
			k := min(x.batch, len(pages))
			left = append(left, maint.FlushPageBatch(t, in, pages[:k], sel, &st)...)
			pages = pages[k:]
		}
		for try := 0; len(left) > 0 && try < retries; try++ {
			st.Sleeps++
			t.Sleep(retryWait)
			left = maint.FlushPageBatch(t, in, left, sel, &st)
		}
	}
	if obs != 0 {
		st.Add(maint.WaitObserver(t, obs))
	} else {
		t.FsyncData()
	}
	return st
}
