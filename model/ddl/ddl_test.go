package ddl_test

// Mechanism tests of the DDL operations, run on their own: a warm pool with a share of it
// dirty and no load, one statement run by ddl.Run on a thread, and the pool and catalogue
// checked against what the operation does (docs/innodb-source.md §4, §6, §8) — which space
// it leaves, which pages it must have freed or written, which phases it reports, what the
// version's steps cost. With nothing else running, the counts are exact.

import (
	"fmt"
	"slices"
	"testing"

	"github.com/ddlsim/ddlsim/model/bufpool"
	"github.com/ddlsim/ddlsim/model/config"
	"github.com/ddlsim/ddlsim/model/ddl"
	"github.com/ddlsim/ddlsim/model/runner"
	"github.com/ddlsim/ddlsim/model/schema"
	"github.com/ddlsim/ddlsim/model/server"
	"github.com/ddlsim/ddlsim/sim"
)

const opYAML = `
name: ddl-op
seed: 3
hardware: profiles/8c-64g.yaml
mysql:
  version: "%s"
  innodb_buffer_pool_size: 512MiB
  innodb_buffer_pool_instances: 2
  innodb_adaptive_hash_index: false
policy: %s
data:
  - {name: sb, tables: 2, rows: 400k}
  - {name: t, tables: 1, rows: 150k}
warm: {fill: 0.97, dirty: 0.3}
warmup: 0s
duration: 1s
schedule:
  - {at: 0s, ddl: %s, table: t}
`

// opRun is one statement run alone on a warm pool, with the target's state before and after.
type opRun struct {
	srv            *server.Server
	tab            *schema.Table
	oldSpace       *server.Space
	oldVersion     uint32
	dirty, pages   int // the target space's dirty and resident pages before the statement
	writtenBefore  uint64
	r              ddl.Result
	declaredPhases []string
}

func runOp(t *testing.T, ver, policy, op string) opRun {
	t.Helper()
	sc, m := build(t, "ddl-op.yaml", fmt.Sprintf(opYAML, ver, policy, op))
	srv := m.Server
	ev := sc.Schedule[0]
	tabs := srv.ResolveTables("t", false)
	if len(tabs) != 1 {
		t.Fatalf("table t: %d tables", len(tabs))
	}
	o := opRun{srv: srv, tab: tabs[0], oldSpace: srv.Spaces.Get(tabs[0].Space), declaredPhases: ddl.PhaseNames(ev.Params.(ddl.Operation))}
	o.oldVersion = o.oldSpace.Version
	o.dirty, o.pages = census(srv, o.oldSpace.ID, nil)
	if o.dirty == 0 || o.pages == 0 {
		t.Fatalf("the warm pool holds %d pages of t, %d dirty: the test needs both", o.pages, o.dirty)
	}
	o.writtenBefore = srv.Stats.PagesWritten
	done := false
	srv.Spawn("ddl", "ddl", func(th *server.Thread) {
		o.r = ddl.Run(th, ev)
		done = true
		m.Sim.Stop()
	})
	m.Sim.Run(600 * sim.Second)
	if !done {
		t.Fatal("the statement did not end within 600 s of virtual time")
	}
	if o.r.Failed {
		t.Fatalf("%s failed: %s", op, o.r.Reason)
	}
	for _, p := range o.r.Phases {
		if !ddl.DeclaresPhase(o.declaredPhases, p.Name) {
			t.Errorf("%s reported phase %q, not among its declared %v", op, p.Name, o.declaredPhases)
		}
	}
	t.Logf("%s %s %s: %d resident, %d dirty; visited %d, freed %d, flushed %d; phases %v", ver, policy, op, o.pages, o.dirty, o.r.NodesVisited, o.r.PagesFreed, o.r.PagesFlushed, o.r.Phases)
	return o
}

// build loads the scenario text y (named name, profiles from scenarios/) and builds its model,
// closed when the test ends.
func build(t *testing.T, name, y string) (*config.Scenario, *runner.Model) {
	t.Helper()
	sc, err := config.LoadBytes(name, []byte(y), "../../scenarios")
	if err != nil {
		t.Fatal(err)
	}
	m, err := runner.Build(sc, runner.BuildOptions{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(m.Close)
	return sc, m
}

// census counts the resident pages of space (those that keep is true for, when keep is set)
// and the dirty ones among them.
func census(srv *server.Server, space uint32, keep func(in *server.Instance, f bufpool.FrameID) bool) (dirty, pages int) {
	for _, in := range srv.Inst {
		for f := range in.BP.SpaceFrames(space) {
			if keep != nil && !keep(in, f) {
				continue
			}
			pages++
			if in.BP.IsDirty(f) {
				dirty++
			}
		}
	}
	return dirty, pages
}

func phase(r ddl.Result, name string) (sim.Time, bool) {
	for _, p := range r.Phases {
		if p.Name == name {
			return p.End - p.Start, true
		}
	}
	return 0, false
}

// TestDropTable: the space is deleted and the table gone; under 8.0.18's scans the
// FLUSH_NO_WRITE walk unlinks exactly the space's dirty pages (and frees no clean one: they
// age out of the LRU), visiting at least them; under 8.0.27's lazy drop with no hashed page
// nothing is walked and the pages stay, all stale; 5.6 frees the table's pages first, one
// page-hash lookup per page (free_pages), which 8.0 does not run.
func TestDropTable(t *testing.T) {
	t.Run("8.0.18/fullscan", func(t *testing.T) {
		o := runOp(t, "8.0.18", "fullscan", "drop_table")
		if !o.oldSpace.Deleted || !o.tab.Dropped {
			t.Errorf("space deleted %v, table dropped %v", o.oldSpace.Deleted, o.tab.Dropped)
		}
		dirty, pages := census(o.srv, o.oldSpace.ID, nil)
		if dirty != 0 {
			t.Errorf("%d dirty pages of the dropped space remain", dirty)
		}
		if o.r.PagesFreed != uint64(o.dirty) || pages != o.pages {
			t.Errorf("unlinked %d of %d dirty pages; resident %d → %d (clean pages must stay)", o.r.PagesFreed, o.dirty, o.pages, pages)
		}
		if o.r.NodesVisited < uint64(o.dirty) {
			t.Errorf("visited %d nodes for %d dirty targets", o.r.NodesVisited, o.dirty)
		}
		if _, ok := phase(o.r, "free_pages"); ok {
			t.Error("8.0 freed the table's pages one by one (free_pages is 5.x's)")
		}
	})
	t.Run("8.0.27/lazy", func(t *testing.T) {
		o := runOp(t, "8.0.27", "lazy", "drop_table")
		if o.r.NodesVisited != 0 || o.r.PagesFreed != 0 {
			t.Errorf("lazy drop with no hashed page walked %d nodes, freed %d pages", o.r.NodesVisited, o.r.PagesFreed)
		}
		_, pages := census(o.srv, o.oldSpace.ID, nil)
		_, stale := census(o.srv, o.oldSpace.ID, func(in *server.Instance, f bufpool.FrameID) bool { return o.srv.Stale(in, f) })
		if pages == 0 || stale != pages {
			t.Errorf("%d pages remain, %d stale: lazy drop leaves them all, stale", pages, stale)
		}
	})
	t.Run("5.6.40/fullscan", func(t *testing.T) {
		o := runOp(t, "5.6.40", "fullscan", "drop_table")
		d, ok := phase(o.r, "free_pages")
		if !ok {
			t.Fatal("5.6 DROP reported no free_pages phase")
		}
		var tablePages int64
		for _, ix := range o.tab.Indexes() {
			tablePages += ix.Pages
		}
		if min := sim.Time(tablePages) * o.srv.Costs.PageHit; d < min {
			t.Errorf("free_pages took %v for %d pages: less than one page-hash lookup each (%v)", d, tablePages, min)
		}
	})
}

// TestTruncateTable: 8.0 drops the space and recreates the table in a new one; 5.7 truncates
// in place — the same space id one version on, and none of the old version's pages resident
// (BUF_REMOVE_ALL_NO_WRITE frees them all).
func TestTruncateTable(t *testing.T) {
	o := runOp(t, "8.0.18", "fullscan", "truncate_table")
	if !o.oldSpace.Deleted || o.tab.Dropped || o.tab.Space == o.oldSpace.ID {
		t.Errorf("8.0: old space deleted %v, table dropped %v, space %d → %d (want a new one)", o.oldSpace.Deleted, o.tab.Dropped, o.oldSpace.ID, o.tab.Space)
	}
	if dirty, _ := census(o.srv, o.oldSpace.ID, nil); dirty != 0 {
		t.Errorf("8.0: %d dirty pages of the old space remain", dirty)
	}

	o = runOp(t, "5.7.30", "fullscan", "truncate_table")
	if o.tab.Space != o.oldSpace.ID || o.oldSpace.Version != o.oldVersion+1 || o.oldSpace.Deleted {
		t.Errorf("5.7: space %d → %d, version %d → %d, deleted %v (want the same space one version on)", o.oldSpace.ID, o.tab.Space, o.oldVersion, o.oldSpace.Version, o.oldSpace.Deleted)
	}
	old := func(in *server.Instance, f bufpool.FrameID) bool {
		return in.BP.SpaceVersion(f) == uint16(o.oldVersion)
	}
	if _, pages := census(o.srv, o.oldSpace.ID, old); pages != 0 {
		t.Errorf("5.7: %d pages of the truncated version remain resident", pages)
	}
	if int(o.r.PagesFreed) < o.pages {
		t.Errorf("5.7: freed %d pages, %d were resident", o.r.PagesFreed, o.pages)
	}
}

// TestFlushForExport: every dirty page of the space is written, exactly once, under each
// policy's walk; the clean ones stay resident; the space and table live on.
func TestFlushForExport(t *testing.T) {
	for _, policy := range []string{"fullscan", "indexed"} {
		t.Run(policy, func(t *testing.T) {
			o := runOp(t, "8.0.18", policy, "flush_for_export")
			dirty, pages := census(o.srv, o.oldSpace.ID, nil)
			if dirty != 0 {
				t.Errorf("%d dirty pages of the space remain", dirty)
			}
			if o.r.PagesFlushed != uint64(o.dirty) {
				t.Errorf("flushed %d pages, %d were dirty", o.r.PagesFlushed, o.dirty)
			}
			if w := o.srv.Stats.PagesWritten - o.writtenBefore; w < uint64(o.dirty) {
				t.Errorf("the server wrote %d pages, %d were dirty", w, o.dirty)
			}
			n := uint64(o.dirty)
			switch policy {
			case "fullscan":
				// 8.0.18 restarts from the tail after every page written: the k-th target is
				// reached past at least the k-1 before it, so the walk is quadratic.
				if o.r.NodesVisited < n*(n+1)/2 {
					t.Errorf("restart from the tail visited %d nodes for %d targets (< %d)", o.r.NodesVisited, n, n*(n+1)/2)
				}
			case "indexed":
				// One walk of the space's dirty prefix, one visit of each target in its batch.
				if o.r.NodesVisited != 2*n {
					t.Errorf("indexed visited %d nodes for %d targets (want %d)", o.r.NodesVisited, n, 2*n)
				}
			}
			if pages != o.pages || o.oldSpace.Deleted || o.tab.Dropped {
				t.Errorf("resident %d → %d, deleted %v, dropped %v: export keeps the table", o.pages, pages, o.oldSpace.Deleted, o.tab.Dropped)
			}
		})
	}
}

// TestDiscardTablespace: before 8.0.23 every page of the space leaves the pool, dirty or
// clean (BUF_REMOVE_ALL_NO_WRITE); from 8.0.23 on they stay, stale.
func TestDiscardTablespace(t *testing.T) {
	o := runOp(t, "8.0.18", "fullscan", "discard_tablespace")
	if _, pages := census(o.srv, o.oldSpace.ID, nil); pages != 0 || int(o.r.PagesFreed) != o.pages {
		t.Errorf("8.0.18: %d pages remain; freed %d of %d", pages, o.r.PagesFreed, o.pages)
	}
	if !o.tab.Dropped {
		t.Error("8.0.18: the table still has its tablespace")
	}
	o = runOp(t, "8.0.27", "lazy", "discard_tablespace")
	_, pages := census(o.srv, o.oldSpace.ID, nil)
	_, stale := census(o.srv, o.oldSpace.ID, func(in *server.Instance, f bufpool.FrameID) bool { return o.srv.Stale(in, f) })
	if pages != o.pages || stale != pages || o.r.PagesFreed != 0 {
		t.Errorf("8.0.27: resident %d → %d, %d stale, freed %d: lazy discard leaves them all, stale", o.pages, pages, stale, o.r.PagesFreed)
	}
	if !slices.Contains(o.declaredPhases, "drop") {
		t.Errorf("discard declares %v", o.declaredPhases)
	}
}
