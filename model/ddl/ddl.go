// Package ddl runs DDL statements as simulated server threads: CREATE INDEX and OPTIMIZE TABLE
// (index build + flush observer + row-log apply), DROP/TRUNCATE TABLE, DISCARD TABLESPACE,
// FLUSH TABLES ... FOR EXPORT, tablespace encryption, undo truncation. Which buffer-pool
// routine each calls is the policy's business (policies/); the sequence of steps follows
// row0merge.cc row_merge_build_indexes (8.0.18) and the sources in docs/innodb-source.md.
package ddl

import (
	"fmt"
	"strings"

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
	nt := schema.NewSysbenchTable(tab.Name, tab.Group, nsp.ID, tab.Rows, len(tab.Secondary), srv.PageSize)
	*tab = *nt
	nsp.Table, nsp.NextPage = tab, tab.NextPage
}

// keyBytes is the stored size of a secondary-index entry on the named sysbench columns.
func keyBytes(cols []string) int64 {
	n := int64(schema.SysbenchPKKey)
	for _, c := range cols {
		switch strings.ToLower(c) {
		case "c":
			n += 120
		case "pad":
			n += 60
		default:
			n += 4
		}
	}
	return n
}

// pool adapts the server's buffer pool to indexbuild.Pool: the DDL's scan reads the source
// table's leaves through the pool, and the bulk load creates the new index's pages, dirtied and
// tagged with the flush observer.
type pool struct {
	srv     *server.Server
	src     *schema.Table
	dst     []*schema.Index // where each built index's pages go
	next    []int64         // pages created so far per index
	obs     uint16
	threads map[*sim.Proc]*server.Thread
}

func (p *pool) thread(pr *sim.Proc) *server.Thread {
	t := p.threads[pr]
	if t == nil {
		t = &server.Thread{S: p.srv, P: pr, Observer: p.obs}
		p.threads[pr] = t
	}
	return t
}

func (p *pool) ReadLeaves(pr *sim.Proc, from, n int64) {
	t := p.thread(pr)
	for i := from; i < from+n; i++ {
		t.Read(p.src.Primary.Leaf(i))
	}
	t.Pay()
}

func (p *pool) NewPages(pr *sim.Proc, index int, n int64) {
	t := p.thread(pr)
	ix := p.dst[index]
	for i := int64(0); i < n; i++ {
		k := p.next[index]
		p.next[index]++
		// Leaves first, in key order, then the upper levels (BtrBulk builds bottom-up).
		lvl, pos := ix.Depth-1, k
		for lvl > 0 && pos >= ix.LevelPages[lvl] {
			pos -= ix.LevelPages[lvl]
			lvl--
		}
		if pos >= ix.LevelPages[lvl] {
			pos = ix.LevelPages[lvl] - 1
		}
		t.NewPage(ix.Page(lvl, pos))
	}
	t.Pay()
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
	kb := keyBytes(ev.Columns)
	var idx []indexbuild.Index
	var dst []*schema.Index
	for i := 0; i < n; i++ {
		idx = append(idx, indexbuild.Index{Name: fmt.Sprintf("new_%d", i+1), KeyBytes: kb})
		ix := schema.NewIndex(fmt.Sprintf("%s.new_%d", tab.Name, i+1), tab.Space, sp.NextPage, tab.Rows, int(kb), int(kb), srv.PageSize)
		sp.NextPage += uint32(ix.Pages)
		dst = append(dst, ix)
	}
	obs := srv.NewObserver()
	p := &pool{srv: srv, src: tab, dst: dst, next: make([]int64, n), obs: obs, threads: map[*sim.Proc]*server.Thread{}}
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
	for i := 0; i < n; i++ {
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
	nt := schema.NewSysbenchTable(tab.Name, tab.Group, nsp.ID, tab.Rows, len(tab.Secondary), srv.PageSize)
	nsp.Table, nsp.NextPage = nt, nt.NextPage
	idx := []indexbuild.Index{{Name: "PRIMARY", KeyBytes: int64(nt.Primary.RecordBytes)}}
	dst := []*schema.Index{nt.Primary}
	for _, s := range nt.Secondary {
		idx = append(idx, indexbuild.Index{Name: s.Name, KeyBytes: int64(s.RecordBytes)})
		dst = append(dst, s)
	}
	obs := srv.NewObserver()
	p := &pool{srv: srv, src: tab, dst: dst, next: make([]int64, len(dst)), obs: obs, threads: map[*sim.Proc]*server.Thread{}}
	t.Pay()
	writes0 := srv.SpaceWrites(tab.Space)
	b := indexbuild.Build(t.P, p.env(srv), buildSpec(srv, tab, idx))
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
