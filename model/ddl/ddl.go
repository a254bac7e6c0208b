// Package ddl runs DDL statements as simulated server threads: CREATE INDEX and OPTIMIZE TABLE
// (index build + flush observer + row-log apply), DROP/TRUNCATE TABLE, DISCARD TABLESPACE,
// FLUSH TABLES ... FOR EXPORT, tablespace encryption, undo truncation. Which buffer-pool
// routine each calls is the policy's business (policies/); the sequence of steps follows
// row0merge.cc row_merge_build_indexes (8.0.18) and the sources in docs/innodb-source.md.
package ddl

import (
	"fmt"

	"github.com/ddlsim/ddlsim/model/bufpool"
	"github.com/ddlsim/ddlsim/model/config"
	"github.com/ddlsim/ddlsim/model/indexbuild"
	"github.com/ddlsim/ddlsim/model/metrics"
	"github.com/ddlsim/ddlsim/model/schema"
	"github.com/ddlsim/ddlsim/model/server"
	"github.com/ddlsim/ddlsim/sim"
)

// Ops lists the DDL operations.
var Ops = []string{"create_index", "optimize_table", "drop_table", "truncate_table", "discard_tablespace",
	"flush_for_export", "encrypt_tablespace", "decrypt_tablespace", "undo_truncate"}

// Result is one statement's outcome in virtual time.
type Result struct {
	metrics.DDLResult
	Start, End sim.Time
	Phases     []Phase
}

// Phase is a named interval.
type Phase struct {
	Name       string
	Start, End sim.Time
}

// Schedule spawns the thread that runs ev at its time(s); begin receives each statement's
// result as it is being filled (phases appear as they complete), done the finished one.
func Schedule(srv *server.Server, ev config.DDLEvent, policy string, begin func(*Result), done func(Result)) {
	name := fmt.Sprintf("ddl:%s:%s@%s", ev.DDL, ev.Table, sim.Time(ev.At))
	srv.Spawn(name, "ddl", func(t *server.Thread) {
		at := sim.Time(ev.At)
		for n := 0; ev.Count == 0 || n < max(ev.Count, 1); n++ {
			if at > t.Now() {
				t.Sleep(at - t.Now())
			}
			r := &Result{Start: t.Now()}
			r.Op, r.Table, r.Policy = ev.DDL, ev.Table, policy
			begin(r)
			run(t, ev, r)
			done(*r)
			if ev.Every == 0 {
				return
			}
			at += sim.Time(ev.Every)
		}
	})
}

// Run executes one DDL statement on thread t.
func Run(t *server.Thread, ev config.DDLEvent) Result {
	r := Result{Start: t.Now()}
	r.Op, r.Table = ev.DDL, ev.Table
	run(t, ev, &r)
	return r
}

func run(t *server.Thread, ev config.DDLEvent, r *Result) {
	srv := t.S
	phase := func(name string, f func() server.ScanStats) {
		st := t.Now()
		s := f()
		t.Pay()
		r.Phases = append(r.Phases, Phase{name, st, t.Now()})
		r.NodesVisited += s.NodesVisited
		r.PagesFlushed += s.PagesFlushed
		r.PagesFreed += s.PagesFreed
		r.Restarts += s.Restarts
	}
	tabs := srv.Groups[ev.Table]
	if len(tabs) == 0 && ev.DDL != "undo_truncate" {
		r.Failed, r.Reason = true, "no table "+ev.Table
		r.End = t.Now()
		return
	}
	var tab *schema.Table
	var sp *server.Space
	if len(tabs) > 0 {
		tab = tabs[0]
		sp = srv.Spaces.Get(tab.Space)
	}
	pol := srv.Policy
	switch ev.DDL {
	case "create_index":
		createIndex(t, ev, tab, sp, r, phase)
	case "optimize_table":
		rebuild(t, tab, sp, r, phase)
	case "drop_table", "truncate_table", "discard_tablespace":
		op := map[string]server.Op{"drop_table": server.OpDropTable, "truncate_table": server.OpTruncateTable,
			"discard_tablespace": server.OpDiscard}[ev.DDL]
		sp.Deleted = true
		phase("drop", func() server.ScanStats { return pol.DropPages(t, sp, op) })
		recreate(srv, tab)
	case "flush_for_export":
		phase("flush", func() server.ScanStats { return pol.FlushPages(t, sp, 0, server.OpExport) })
	case "encrypt_tablespace", "decrypt_tablespace":
		// fsp_alter_encrypt_tablespace: mark_all_page_dirty_in_tablespace reads and dirties
		// every page of the space, then FLUSH_WRITE of the space.
		phase("mark_dirty", func() server.ScanStats {
			for _, ix := range append([]*schema.Index{tab.Primary}, tab.Secondary...) {
				for l := 0; l < ix.Depth; l++ {
					for p := int64(0); p < ix.LevelPages[l]; p++ {
						t.Charge(srv.Costs.Row)
						t.Write(ix.Page(l, p))
					}
				}
			}
			return server.ScanStats{}
		})
		phase("flush", func() server.ScanStats { return pol.FlushPages(t, sp, 0, server.OpEncrypt) })
	case "undo_truncate":
		u := srv.Undo
		u.Version++
		phase("truncate", func() server.ScanStats { return pol.DropPages(t, u, server.OpUndoTruncate) })
		u.NextPage = 3
	default:
		r.Failed, r.Reason = true, "unknown DDL "+ev.DDL
	}
	t.Pay()
	r.End = t.Now()
}

// recreate gives a dropped/truncated table a fresh empty tablespace of the same shape, so the
// load that used it continues on cold pages (TRUNCATE semantics; DROP followed by re-create).
func recreate(srv *server.Server, tab *schema.Table) {
	nsp := srv.Spaces.New(tab.Name)
	nt := tab.Fresh(nsp.ID)
	*tab = *nt
	nsp.Table, nsp.NextPage = tab, tab.NextPage
}

// pool adapts the server's buffer pool to indexbuild.Pool: the DDL's scan reads the source
// table's leaves through the pool, and the bulk load creates the new index's pages, dirtied and
// tagged with the flush observer.
//
// Aggregation (docs/indexbuild.md "What is aggregated"): a table whose clustered index has
// more leaves than the pool has frames is scanned extent by extent, not page by page: an
// extent (64 pages, the read-ahead unit) whose first page is in the pool is read from it
// (PageHit CPU per page), the others are left to the build, which reads them from the data
// device in read-ahead extents. And of the pages the load creates, only the last ones of each
// index — as many, over all indexes, as the pool has frames — go through the pool page by
// page: the earlier ones are evicted before the load ends, so the build writes them back in
// aggregate while the load runs. The pool therefore ends the load holding the same pages, and
// the observer flush meets the same dirty set, as with every page passed through it.
type pool struct {
	srv     *server.Server
	src     *schema.Table
	dst     []*schema.Index // where each built index's pages go
	next    []int64         // pages created so far per index
	window  []int64         // per index: its last window[i] pages go through the pool
	total   []int64         // per index: the pages the build creates
	bulk    bool            // scan extent by extent (the source is larger than the pool)
	obs     uint16
	threads map[*sim.Proc]*server.Thread
}

// newPool builds the adapter for a build of specs into dst from src. oneAtATime: the
// indexes are loaded one after another, so the pool's window goes to the last ones.
func newPool(srv *server.Server, src *schema.Table, specs []indexbuild.Index, dst []*schema.Index, obs uint16, oneAtATime bool) *pool {
	p := &pool{srv: srv, src: src, dst: dst, next: make([]int64, len(dst)), window: make([]int64, len(dst)),
		total: make([]int64, len(dst)), obs: obs, threads: map[*sim.Proc]*server.Thread{}}
	frames := int64(srv.Frames())
	p.bulk = src.Primary.LeafPages() > frames
	var sum int64
	for i, ix := range specs {
		p.total[i] = indexbuild.IndexPages(src.Rows, ix, srv.PageSize)
		sum += p.total[i]
	}
	switch {
	case sum <= frames:
		copy(p.window, p.total)
	case oneAtATime:
		left := frames
		for i := len(dst) - 1; i >= 0; i-- {
			p.window[i] = min(p.total[i], left)
			left -= p.window[i]
		}
	default:
		for i := range dst {
			p.window[i] = p.total[i] * frames / sum
		}
	}
	return p
}

func (p *pool) thread(pr *sim.Proc) *server.Thread {
	t := p.threads[pr]
	if t == nil {
		t = &server.Thread{S: p.srv, P: pr, Observer: p.obs}
		p.threads[pr] = t
	}
	return t
}

// extentLeaves is the read-ahead unit of the aggregated scan (64 pages, one extent).
const extentLeaves = 64

func (p *pool) ReadLeaves(pr *sim.Proc, from, n int64) (rest int64) {
	t := p.thread(pr)
	ix := p.src.Primary
	if !p.bulk {
		for i := from; i < from+n; i++ {
			t.Read(ix.Leaf(i))
		}
		t.Pay()
		return 0
	}
	var hits int64
	for e := from; e < from+n; {
		end := min((e/extentLeaves+1)*extentLeaves, from+n)
		pid := ix.Leaf(e)
		if p.srv.InstanceOf(pid).BP.Lookup(bufpool.PageID(pid)) != bufpool.Nil {
			hits += end - e
		} else {
			rest += end - e
		}
		e = end
	}
	t.Hits += uint64(hits)
	p.srv.Stats.Hits += uint64(hits)
	t.Charge(sim.Time(hits) * p.srv.Costs.PageHit)
	t.Pay()
	return rest
}

func (p *pool) NewPages(pr *sim.Proc, index int, n int64) (rest int64) {
	t := p.thread(pr)
	ix := p.dst[index]
	k0 := p.next[index]
	p.next[index] += n
	rest = min(max(p.total[index]-p.window[index]-k0, 0), n)
	if !p.bulk {
		for k := k0 + rest; k < k0+n; k++ {
			t.NewPage(newPageID(ix, k))
		}
		t.Pay()
		return rest
	}
	// A table larger than the pool: its window (a pool-full of pages) is created an
	// instance's run at a time (server.Thread.NewPages: one hold of each list mutex per
	// run instead of one per page; the same CPU, the same pool state).
	var buf [512]schema.PageID
	for k := k0 + rest; k < k0+n; {
		m := 0
		for ; m < len(buf) && k < k0+n; k, m = k+1, m+1 {
			buf[m] = newPageID(ix, k)
		}
		t.NewPages(buf[:m])
	}
	t.Pay()
	return rest
}

// newPageID is the k-th page a bulk load creates in ix: leaves first, in key order, then the
// upper levels (BtrBulk builds bottom-up).
func newPageID(ix *schema.Index, k int64) schema.PageID {
	lvl, pos := ix.Depth-1, k
	for lvl > 0 && pos >= ix.LevelPages[lvl] {
		pos -= ix.LevelPages[lvl]
		lvl--
	}
	if pos >= ix.LevelPages[lvl] {
		pos = ix.LevelPages[lvl] - 1
	}
	return ix.Page(lvl, pos)
}

func (p *pool) env(srv *server.Server) indexbuild.Env {
	hw := &srv.Sc.HardwareProfile
	return indexbuild.Env{Sim: srv.Sim, Cores: srv.Cores, Data: srv.Data, Temp: srv.Temp,
		DataOpLatency: sim.Time(hw.Storage.Data.Read.P50), TempOpLatency: sim.Time(hw.Storage.Temp.Read.P50),
		Costs: hw.Costs, PageSize: srv.PageSize, Pool: p,
		CacheBytes: int64(hw.LLC), PageCacheBytes: sortFileCache(srv)}
}

// sortFileCache is the OS page cache the index build's sort files go through (none with
// innodb_disable_sort_file_cache).
func sortFileCache(srv *server.Server) int64 {
	if srv.Sc.MySQL.DisableSortFileCache {
		return 0
	}
	return indexbuild.PageCacheFor(int64(srv.Sc.HardwareProfile.Memory), int64(srv.Sc.MySQL.BufferPoolSize))
}

// tmpdirSpace is the free space for sort files: the temp device's, or the data device's
// when the profile has no temp device (0 = unlimited).
func tmpdirSpace(hw *config.Hardware) int64 {
	if hw.Storage.Temp.IsSet() {
		return int64(hw.Storage.Temp.Capacity)
	}
	return int64(hw.Storage.Data.Capacity)
}

func buildSpec(srv *server.Server, src *schema.Table, idx []indexbuild.Index) indexbuild.Spec {
	my := &srv.Sc.MySQL
	return indexbuild.Spec{Version: my.Version, Rows: src.Rows, RowBytes: int64(src.RowBytes),
		PKLeafPages: src.Primary.LeafPages(), Indexes: idx, Threads: my.DDLThreads,
		BufferSize: int64(my.DDLBufferSize), ParallelReadThreads: my.ParallelReadThreads,
		SortBufferSize: int64(my.SortBufferSize), TempSpaceLimit: tmpdirSpace(&srv.Sc.HardwareProfile),
		MyRocks: indexbuild.MyRocksOpts{MergeBufSize: int64(my.RocksDBMergeBufSize),
			MergeCombineReadSize: int64(my.RocksDBMergeCombineReadSize)}}
}

// AggregateBuild returns the machine and statement of the index build that create_index ev
// runs on srv, in aggregate mode (no buffer pool: the table is read from the data device and
// the new pages are written back as they are built): the indexbuild-only model that the
// option study's tables come from (docs/indexbuild.md). It does not change srv.
func AggregateBuild(srv *server.Server, ev config.DDLEvent) (indexbuild.Env, indexbuild.Spec, error) {
	tabs := srv.Groups[ev.Table]
	if len(tabs) == 0 {
		return indexbuild.Env{}, indexbuild.Spec{}, fmt.Errorf("no table %s", ev.Table)
	}
	tab := tabs[0]
	var idx []indexbuild.Index
	for _, d := range tab.NewIndexes(ev.Columns, max(ev.Indexes, 1)) {
		idx = append(idx, indexbuild.Index{Name: d.Name, KeyBytes: int64(d.EntryBytes)})
	}
	env := (&pool{}).env(srv)
	env.Pool = nil
	spec := buildSpec(srv, tab, idx)
	spec.Engine, spec.OneAtATime = ev.Engine, ev.OneAtATime
	return env, spec, nil
}

func addBuildPhases(r *Result, b indexbuild.Result) {
	for _, ph := range b.Phases {
		r.Phases = append(r.Phases, Phase{ph.Name, ph.Start, ph.End})
	}
}

// createIndex is online ADD INDEX (row_merge_build_indexes, 8.0.18): one scan of the
// clustered index, sort/merge per index, bulk load under a flush observer, then per index the
// observer flush and the row-log apply, and a last observer flush at the end.
func createIndex(t *server.Thread, ev config.DDLEvent, tab *schema.Table, sp *server.Space, r *Result, phase func(string, func() server.ScanStats)) {
	srv := t.S
	n := max(ev.Indexes, 1)
	// Each index from its own definition: the table kind's indexes on these columns (the
	// insert benchmark's three), or indexes on ev.Columns.
	var idx []indexbuild.Index
	var dst []*schema.Index
	for _, d := range tab.NewIndexes(ev.Columns, n) {
		idx = append(idx, indexbuild.Index{Name: d.Name, KeyBytes: int64(d.EntryBytes)})
		ix := schema.NewIndex(tab.Name+"."+d.Name, tab.Space, sp.NextPage, tab.Rows, d.EntryBytes, d.EntryBytes, srv.PageSize)
		ix.Columns = d.Columns
		sp.NextPage += uint32(ix.Pages)
		dst = append(dst, ix)
	}
	obs := srv.NewObserver()
	p := newPool(srv, tab, idx, dst, obs, ev.OneAtATime)
	t.Pay()
	writes0 := srv.SpaceWrites(tab.Space)
	spec := buildSpec(srv, tab, idx)
	spec.Engine, spec.OneAtATime = ev.Engine, ev.OneAtATime
	b := indexbuild.Build(t.P, p.env(srv), spec)
	addBuildPhases(r, b)
	if b.Failed {
		r.Failed, r.Reason = true, b.Reason
		return
	}
	for i := range dst {
		phase("observer_flush", func() server.ScanStats { return srv.Policy.FlushPages(t, sp, obs, server.OpObserverFlush) })
		phase("row_log_apply", func() server.ScanStats {
			rowLogApply(t, dst[i], srv.SpaceWrites(tab.Space)-writes0)
			return server.ScanStats{}
		})
	}
	phase("observer_flush", func() server.ScanStats { return srv.Policy.FlushPages(t, sp, obs, server.OpObserverFlush) })
	tab.Secondary = append(tab.Secondary, dst...)
}

// rowLogApply replays the DML logged while the index was built: per logged change a row's CPU
// and a leaf of the new index modified.
func rowLogApply(t *server.Thread, ix *schema.Index, changes uint64) {
	t.Internal = true
	defer func() { t.Internal = false }()
	for i := uint64(0); i < changes; i++ {
		t.Charge(t.S.Costs.Row)
		t.Write(ix.Leaf(int64(i*2654435761) % ix.LeafPages()))
	}
}

// rebuild is OPTIMIZE TABLE / ALTER TABLE ... FORCE: every index built into a new tablespace
// under one observer, one observer flush, the table row-log apply, then the old tablespace
// dropped.
func rebuild(t *server.Thread, tab *schema.Table, sp *server.Space, r *Result, phase func(string, func() server.ScanStats)) {
	srv := t.S
	nsp := srv.Spaces.New(tab.Name + "#new")
	nt := tab.Fresh(nsp.ID)
	nsp.Table, nsp.NextPage = nt, nt.NextPage
	idx := []indexbuild.Index{{Name: "PRIMARY", KeyBytes: int64(nt.Primary.RecordBytes)}}
	dst := []*schema.Index{nt.Primary}
	for _, s := range nt.Secondary {
		idx = append(idx, indexbuild.Index{Name: s.Name, KeyBytes: int64(s.RecordBytes)})
		dst = append(dst, s)
	}
	obs := srv.NewObserver()
	p := newPool(srv, tab, idx, dst, obs, false)
	t.Pay()
	writes0 := srv.SpaceWrites(tab.Space)
	spec := buildSpec(srv, tab, idx)
	spec.Rebuild = true // the primary key is unchanged: no sort for the clustered index
	b := indexbuild.Build(t.P, p.env(srv), spec)
	addBuildPhases(r, b)
	if b.Failed {
		r.Failed, r.Reason = true, b.Reason
		return
	}
	phase("observer_flush", func() server.ScanStats { return srv.Policy.FlushPages(t, nsp, obs, server.OpObserverFlush) })
	phase("row_log_apply", func() server.ScanStats {
		rowLogApply(t, nt.Primary, srv.SpaceWrites(tab.Space)-writes0)
		return server.ScanStats{}
	})
	// Swap the tables, then drop the old tablespace.
	old := *tab
	*tab = *nt
	nsp.Table = tab
	sp.Deleted = true
	_ = old
	phase("drop", func() server.ScanStats { return srv.Policy.DropPages(t, sp, server.OpDropTable) })
}
