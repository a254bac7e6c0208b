package ddl

import (
	"fmt"

	"github.com/ddlsim/ddlsim/model/bufpool"
	"github.com/ddlsim/ddlsim/model/config"
	"github.com/ddlsim/ddlsim/model/indexbuild"
	"github.com/ddlsim/ddlsim/model/schema"
	"github.com/ddlsim/ddlsim/model/server"
	"github.com/ddlsim/ddlsim/sim"
)

// What the index-building operations (create_index, optimize_table) share: the adapter that
// runs model/indexbuild's build through the buffer pool, the build's specification from the
// scenario, and the row-log apply.

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
	// pageRedo: a redo-logged build (obs == 0) writes this much redo per new page on top of
	// what dirtying a page writes (server.Thread.modified), and checks the log's free space
	// per page (log_free_check in PageBulk::init / Btree_load::prepare_space).
	pageRedo []uint64
}

// newPool builds the adapter for a build of specs into dst from src. oneAtATime: the
// indexes are loaded one after another, so the pool's window goes to the last ones.
func newPool(srv *server.Server, src *schema.Table, specs []indexbuild.Index, dst []*schema.Index, obs uint16, oneAtATime bool) *pool {
	p := &pool{srv: srv, src: src, dst: dst, next: make([]int64, len(dst)), window: make([]int64, len(dst)),
		total: make([]int64, len(dst)), obs: obs, threads: map[*sim.Proc]*server.Thread{}}
	frames := int64(srv.Frames())
	p.bulk = src.Primary.LeafPages() > frames
	var sum int64
	p.pageRedo = make([]uint64, len(specs))
	for i, ix := range specs {
		p.total[i] = indexbuild.IndexPages(src.Rows, ix, srv.PageSize)
		sum += p.total[i]
		p.pageRedo[i] = buildRedoPerPage(src.Rows, ix, p.total[i])
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
		// Internal: the build's own pages are not DML on the table (no row-log feed).
		t = &server.Thread{Srv: p.srv, Proc: pr, Observer: p.obs, Internal: true}
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
			if p.obs == 0 {
				t.LogFreeCheck()
			}
			t.NewPage(newPageID(ix, k))
			if p.obs == 0 {
				p.srv.Redo.Advance(p.pageRedo[index])
			}
			p.srv.FlushEvent() // a new page of the bulk load: os_event_set(buf_flush_event)
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
		if p.obs == 0 {
			t.LogFreeCheck()
		}
		t.NewPages(buf[:m])
		if p.obs == 0 {
			p.srv.Redo.Advance(p.pageRedo[index] * uint64(m))
		}
		p.srv.FlushEvent()
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
	hw := &srv.Scenario.HardwareProfile
	return indexbuild.Env{Sim: srv.Sim, Cores: srv.Cores, Data: srv.Data, Temp: srv.Temp,
		DataOpLatency: sim.Time(hw.Storage.Data.Read.P50), TempOpLatency: sim.Time(hw.Storage.Temp.Read.P50),
		Costs: hw.Costs, PageSize: srv.PageSize, Pool: p,
		CacheBytes: int64(hw.LLC), PageCacheBytes: sortFileCache(srv)}
}

// sortFileCache is the OS page cache the index build's sort files go through (none with
// innodb_disable_sort_file_cache).
func sortFileCache(srv *server.Server) int64 {
	if srv.Scenario.MySQL.DisableSortFileCache {
		return 0
	}
	return indexbuild.PageCacheFor(int64(srv.Scenario.HardwareProfile.Memory), int64(srv.Scenario.MySQL.BufferPoolSize))
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
	my := &srv.Scenario.MySQL
	// The build follows the InnoDB code of the version's MySQL base (Percona: its MySQL
	// release; MariaDB 10.11: row0merge.cc as in 5.7, version.V.InnoDB).
	b := srv.Ver.InnoDB()
	ver := fmt.Sprintf("%d.%d.%d", b.Major, b.Minor, b.Patch)
	return indexbuild.Spec{Version: ver, Rows: src.Rows, RowBytes: int64(src.RowBytes),
		PKLeafPages: src.Primary.LeafPages(), Indexes: idx, Threads: my.DDLThreads,
		BufferSize: int64(my.DDLBufferSize), ParallelReadThreads: my.ParallelReadThreads,
		SortBufferSize: int64(my.SortBufferSize), TempSpaceLimit: tmpdirSpace(&srv.Scenario.HardwareProfile),
		MyRocks: indexbuild.MyRocksOpts{MergeBufSize: int64(my.RocksDBMergeBufSize),
			MergeCombineReadSize: int64(my.RocksDBMergeCombineReadSize)}}
}

// AggregateBuild returns the machine and statement of the index build that create_index ev
// runs on srv, in aggregate mode (no buffer pool: the table is read from the data device and
// the new pages are written back as they are built): the indexbuild-only model that the
// option study's tables come from (docs/indexbuild.md). It does not change srv.
func AggregateBuild(srv *server.Server, ev config.DDLEvent) (indexbuild.Env, indexbuild.Spec, error) {
	ci, ok := ev.Params.(*CreateIndex)
	if !ok {
		return indexbuild.Env{}, indexbuild.Spec{}, fmt.Errorf("%s is not a create_index", ev.DDL)
	}
	tabs := srv.Groups[ev.Table]
	if len(tabs) == 0 {
		return indexbuild.Env{}, indexbuild.Spec{}, fmt.Errorf("no table %s", ev.Table)
	}
	tab := tabs[0]
	var idx []indexbuild.Index
	for _, d := range tab.NewIndexes(ci.Columns, max(ci.Indexes, 1)) {
		idx = append(idx, indexbuild.Index{Name: d.Name, KeyBytes: int64(d.EntryBytes), Fields: entryFields(d.Columns)})
	}
	env := (&pool{}).env(srv)
	env.Pool = nil
	spec := buildSpec(srv, tab, idx)
	spec.Engine, spec.OneAtATime = ci.Engine, ci.OneAtATime
	return env, spec, nil
}

// entryFields is a secondary-index entry's field count: its key columns and the one-column
// primary key of every modelled table kind (0 when the columns are not known: the build's
// default of two).
func entryFields(columns []string) int {
	if len(columns) == 0 {
		return 0
	}
	return len(columns) + 1
}

// buildRedoPerPage is the redo a redo-logged bulk load writes per page of index ix, beyond the
// page's first-dirtying redo: each record copied into the page as a logged write (MariaDB
// 10.6+ PageBulk::insertPage: mtr memcpy of the record minus the prefix it shares with the
// previous one — taken as the whole record, an upper side — plus ~3 bytes of log record
// header), and the page directory and header at finishPage; 5.5/5.6's row-by-row inserts
// log MLOG_COMP_REC_INSERT records of about the same size.
func buildRedoPerPage(rows int64, ix indexbuild.Index, pages int64) uint64 {
	const recHeader, logHeader, finish = 5, 3, 64
	if pages <= 0 {
		return 0
	}
	perPage := rows*(ix.KeyBytes+recHeader+logHeader)/pages + finish
	return uint64(max(0, perPage-server.RedoPerPage))
}

// newObserver is the build's FlushObserver, or 0 when the version logs the build's pages to
// redo instead (Traits.RedoLoggedBuild): then no observer flush ends the statement, the pages
// are ordinary dirty pages the page cleaners flush by checkpoint age.
func newObserver(srv *server.Server) uint16 {
	if srv.Traits.RedoLoggedBuild {
		return 0
	}
	return srv.NewObserver()
}

func addBuildPhases(r *Result, b indexbuild.Result) {
	for _, ph := range b.Phases {
		r.Phases = append(r.Phases, Phase{ph.Name, ph.Start, ph.End})
	}
}

// statsSamplePages is innodb_stats_persistent_sample_pages (default 20).
const statsSamplePages = 20

// updateStats is dict_stats_update(DICT_STATS_RECALC_PERSISTENT) after a build: per index
// dict_stats_analyze_index dives to statsSamplePages leaves (a root-to-leaf path each, spread
// over the index), then dict_stats_save writes the table's row and three rows per index into
// mysql.innodb_table_stats / innodb_index_stats in one transaction: a statement's CPU, a
// row's CPU and a row change's redo per row, the commit's log write. The stats tables' own
// pages are not modelled (a handful of hot pages).
func updateStats(t *server.Thread, tab *schema.Table) { updateStatsOf(t, tab.Indexes()) }

// updateStatsOf is updateStats for some indexes (dict_stats_update_for_index after ADD INDEX)
// plus the table's row.
func updateStatsOf(t *server.Thread, indexes []*schema.Index) {
	t.Internal = true
	defer func() { t.Internal = false }()
	var buf []schema.PageID
	rows := 1
	for _, ix := range indexes {
		n := ix.LeafPages()
		for i := int64(0); i < statsSamplePages; i++ {
			buf = ix.Path(buf[:0], min(n-1, i*n/statsSamplePages))
			t.ReadPath(buf)
		}
		rows += 3
	}
	c := &t.Srv.Costs
	t.Charge(c.Statement + sim.Time(rows)*c.Row)
	t.Srv.Redo.Advance(uint64(rows) * server.RedoPerPage)
	t.CommitWait()
}

// rowLogApply replays the DML logged while the index was built: per logged change a row's CPU
// and a leaf of the new index modified.
func rowLogApply(t *server.Thread, ix *schema.Index, changes uint64) {
	t.Internal = true
	defer func() { t.Internal = false }()
	for i := uint64(0); i < changes; i++ {
		t.Charge(t.Srv.Costs.Row)
		t.Write(ix.Leaf(int64(i*2654435761) % ix.LeafPages()))
	}
}

// rowLogHeaderBytes is a modification-log record's fixed part: ROW_LOG_HEADER_SIZE (2: the
// operation and extra_size) and the DB_TRX_ID (DATA_TRX_ID_LEN, 6) an insert carries
// (row0log.cc, row_log_online_op).
const rowLogHeaderBytes = 2 + 6

// rowLogOverflow reports whether an online ALTER's modification log of changes records of
// recBytes each (the index entry for ADD INDEX, the row for a rebuild) outgrew
// innodb_online_alter_log_max_size, and if so the server's error. The log is written to its
// temporary file in blocks of innodb_sort_buffer_size; the block write that would reach the
// limit fails (row_log_online_op / row_log_table_close_func: byte_offset + srv_sort_buf_size
// >= srv_online_max_size), which marks the new index corrupt (ADD INDEX) or the log failed
// (rebuild), and the ALTER reports it when it applies the log (row_log_apply_ops:
// DB_ONLINE_LOG_TOO_BIG, ER_INNODB_ONLINE_LOG_TOO_BIG, 1799). So the log holds at most
// ceil(max / block) blocks' worth.
//
// Enforced only when the scenario sets innodb_online_alter_log_max_size (the server's default
// is 128MiB): runs written before the setting was modelled keep their results.
//
// Simplified: every page modification of the table while the ALTER runs counts as one
// logged record (the same count rowLogApply replays), which over-counts the changes that do
// not touch the new index's columns.
func rowLogOverflow(srv *server.Server, changes uint64, recBytes int64, what string) (bool, string) {
	block := int64(srv.Scenario.MySQL.SortBufferSize)
	limit := int64(srv.Scenario.MySQL.OnlineAlterLogMaxSize)
	if block <= 0 || limit <= 0 { // not set: not enforced (docs/scenarios.md)
		return false, ""
	}
	cap := (limit + block - 1) / block * block
	bytes := int64(changes) * (recBytes + rowLogHeaderBytes)
	if bytes < cap {
		return false, ""
	}
	return true, fmt.Sprintf("ER_INNODB_ONLINE_LOG_TOO_BIG (1799): %s required more than 'innodb_online_alter_log_max_size' (%s) bytes of modification log: %d concurrent changes logged, %.1f MiB; the ALTER is rolled back. Raise innodb_online_alter_log_max_size or run it when fewer rows change",
		what, config.Size(limit), changes, float64(bytes)/float64(config.MiB))
}
