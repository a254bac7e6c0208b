package server_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/ddlsim/ddlsim/model/bufpool"
	"github.com/ddlsim/ddlsim/model/runner"
	"github.com/ddlsim/ddlsim/model/schema"
	"github.com/ddlsim/ddlsim/model/server"
	"github.com/ddlsim/ddlsim/sim"
)

// Thread.NewPages (the aggregated page creation of a build on a table larger than the pool)
// must leave the pool as NewPage called page by page does — the oracle here is that per-page
// path, run on an identical server: the same frames on the LRU in the same order (with their
// old flags), the same free list, the same flush list in order with the same LSNs and
// observers, the same counters, every invariant (bufpool Check), and the same virtual time
// spent (the same CPU charged). The cases cover a free list that suffices, one that runs out
// (evictions from the LRU tail in the same hold), a tail of dirty pages (the per-page
// fallback: single-page flushes), pages already in the pool and a page repeated.
func TestNewPagesMatchesPerPage(t *testing.T) {
	for _, pol := range []string{"fullscan", "lazy"} {
		for _, c := range []struct {
			name       string
			pages      int  // new pages created
			dirtyTail  int  // tail pages of each instance dirtied first
			present    bool // include pages already in the pool, and a repeat
			warmFill   float64
			bufferPool string
			want       string // a line the state must contain (the case is exercised)
			stale      bool   // lazy only: the table's space version moves on (a truncation)
		}{
			{"free list suffices", 150, 0, false, 0.5, "32MiB", " dirty 150 clock 0 ", false},
			{"evicts", 1500, 0, false, 0.9, "32MiB", " dirty 1500 clock 1295 ", false},
			{"dirty tail", 900, 150, false, 0.95, "32MiB", "single-page flushes 51 ", false},
			{"present pages", 700, 0, true, 0.9, "32MiB", " dirty 702 ", false},
			{"LRU shorter than BUF_LRU_OLD_MIN_LEN", 300, 0, false, 0.9, "6MiB", " old 0 ", false},
			{"stale pages", 700, 40, true, 0.9, "32MiB", "stale freed 40 ", true},
		} {
			if c.stale && pol != "lazy" {
				continue
			}
			t.Run(pol+"/"+c.name, func(t *testing.T) {
				per := newPagesRun(t, pol, c.bufferPool, c.warmFill, c.pages, c.dirtyTail, c.present, c.stale, false)
				agg := newPagesRun(t, pol, c.bufferPool, c.warmFill, c.pages, c.dirtyTail, c.present, c.stale, true)
				if !strings.Contains(per.state, c.want) {
					t.Fatalf("the case is not exercised: no %q in the state (%s)", c.want, summary(per.state))
				}
				if per.state != agg.state {
					t.Fatalf("pool state differs:\n%s", firstDiff(per.state, agg.state))
				}
				if per.end != agg.end {
					t.Errorf("virtual time: per page %v, aggregated %v", per.end, agg.end)
				}
			})
		}
	}
}

type newPagesResult struct {
	state string
	end   sim.Time
}

func newPagesRun(t *testing.T, pol, pool string, fill float64, pages, dirtyTail int, present, stale, aggregated bool) newPagesResult {
	t.Helper()
	sc := loadScenario(t, fmt.Sprintf(`
name: newpages
seed: 7
hardware: profiles/8c-64g.yaml
mysql: {version: "8.0.32", innodb_buffer_pool_size: %s, innodb_buffer_pool_instances: 2}
policy: %s
data:
  - {name: sb, tables: 1, rows: 200k}
warm: {fill: %g}
duration: 1s
`, pool, pol, fill))
	m, err := runner.Build(sc, runner.BuildOptions{})
	if err != nil {
		t.Fatal(err)
	}
	defer m.Close()
	s, srv := m.Sim, m.Server
	sp := srv.Spaces.New("sb.new")
	var pids []schema.PageID
	for i := 0; i < pages; i++ {
		pids = append(pids, schema.MakePageID(sp.ID, uint32(4+i)))
	}
	if present {
		// Two pages of the table (in the pool after the warm fill) and a repeat.
		ix := srv.Tables[0].Primary
		pids = append(pids[:pages/3], append([]schema.PageID{ix.Leaf(0), pids[5], ix.Leaf(1)}, pids[pages/3:]...)...)
	}
	var tail []schema.PageID
	for _, in := range srv.Inst {
		n := 0
		for f := in.BP.LRUTail(); f != bufpool.Nil && n < dirtyTail; f = in.BP.LRUPrev(f) {
			tail = append(tail, schema.PageID(in.BP.Key(f)))
			n++
		}
	}
	obs := srv.NewObserver()
	var end sim.Time
	srv.Spawn("ddl", "ddl", func(th *server.Thread) {
		for _, pid := range tail {
			th.Write(pid)
		}
		th.Pay()
		if stale {
			srv.Spaces.Get(srv.Tables[0].Space).Version++
		}
		th.Observer = obs
		if aggregated {
			th.NewPages(pids)
		} else {
			for _, pid := range pids {
				th.NewPage(pid)
			}
		}
		th.Pay()
		end = th.Now()
	})
	s.Run(10 * sim.Second)
	if end == 0 {
		t.Fatal("the creating thread did not finish")
	}
	var b strings.Builder
	for i, in := range srv.Inst {
		bp := in.BP
		if err := bp.Check(); err != nil {
			t.Fatalf("instance %d: %v", i, err)
		}
		if bp.Taken() != 0 {
			t.Fatalf("instance %d: %d frames taken and not placed", i, bp.Taken())
		}
		fmt.Fprintf(&b, "instance %d: lru %d old %d free %d dirty %d clock %d stats %+v\n", i,
			bp.LRULen(), bp.OldLen(), bp.FreeLen(), bp.FlushLen(), bp.FreedClock(), bp.Stats)
		for f := bp.LRUHead(); f != bufpool.Nil; f = bp.LRUNext(f) {
			fmt.Fprintf(&b, "lru %d %v old=%v dirty=%v fix=%d obs=%d ver=%d\n", f, bp.Key(f), bp.IsOld(f),
				bp.IsDirty(f), bp.FixCount(f), bp.Observer(f), bp.SpaceVersion(f))
		}
		for f := bp.FlushOldest(); f != bufpool.Nil; f = bp.FlushNewer(f) {
			fmt.Fprintf(&b, "flush %d %v lsn %d\n", f, bp.Key(f), bp.OldestMod(f))
		}
		// The free list, in order (emptied: the server is not used afterwards).
		for f := bp.TakeFree(); f != bufpool.Nil; f = bp.TakeFree() {
			fmt.Fprintf(&b, "free %d\n", f)
		}
	}
	st := srv.Stats
	fmt.Fprintf(&b, "stats: written %d single-page flushes %d stale freed %d free waits %d\n",
		st.PagesWritten, st.SinglePageFlushes, st.StalePagesFreed, st.FreeWaits)
	return newPagesResult{b.String(), end}
}

func firstDiff(a, b string) string {
	al, bl := strings.Split(a, "\n"), strings.Split(b, "\n")
	for i := 0; i < min(len(al), len(bl)); i++ {
		if al[i] != bl[i] {
			return fmt.Sprintf("line %d:\n  per page:   %s\n  aggregated: %s", i+1, al[i], bl[i])
		}
	}
	return fmt.Sprintf("lengths %d, %d lines", len(al), len(bl))
}

// summary is the state's per-instance and counter lines.
func summary(state string) string {
	var out []string
	for _, l := range strings.Split(state, "\n") {
		if strings.HasPrefix(l, "instance") || strings.HasPrefix(l, "stats") {
			out = append(out, l)
		}
	}
	return strings.Join(out, "; ")
}
