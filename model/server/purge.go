package server

import (
	"fmt"

	"github.com/ddlsim/ddlsim/model/schema"
	"github.com/ddlsim/ddlsim/model/version"
	"github.com/ddlsim/ddlsim/sim"
)

// Purge (docs/mariadb-write-path.md §4, docs/model.md "Purge"): the history list of committed
// transactions' update undo logs, the purge coordinator and its workers, and the page lookups
// each undo record costs.
//
//   - A write statement logs an undo record (Thread.LogUndo: its kind, table, row and undo
//     page); COMMIT moves the transaction's records to the history list
//     (trx_write_serialisation_history → trx_purge_add_undo_to_history), a rollback drops
//     them. Insert undo is freed at commit and never purged (trx_undo_insert_cleanup).
//   - The coordinator (MariaDB purge_coordinator_state::do_purge, srv/srv0srv.cc; MySQL
//     srv_purge_coordinator_thread → srv_do_purge) runs batches (trx_purge) while history
//     exists and stops when a batch handled nothing; then it waits: MariaDB until the master
//     task's next one-second tick (srv_master_callback → purge_sys.wake_if_not_active), MySQL
//     at most SRV_PURGE_MAX_TIMEOUT = 10 ms (srv_purge_coordinator_suspend's
//     os_event_wait_time_low).
//   - A batch (trx_purge_attach_undo_recs) clones the oldest read view (a transaction
//     committed after the oldest open view was created is not purged), takes the history's
//     records oldest first, buffer-fixing each distinct undo page once per batch
//     (purge_sys_t::get_page: one lookup per page, a miss reads it), until
//     innodb_purge_batch_size undo pages were handled; it groups the records per table and
//     runs min(tables, innodb_purge_threads) − 1 workers besides itself.
//   - Per record (row/row0purge.cc): parsing it (costs.row: trx_undo_rec_get_pars,
//     row_purge_parse_undo_rec); for an update of an indexed column or a delete mark, for each
//     delete-marked secondary entry, row_purge_remove_sec_if_poss_leaf: the secondary leaf
//     search (Search, write), row_purge_poss_sec: the clustered record's positioning (Search
//     of the primary key) and the version check through the undo log (one undo-page lookup),
//     then btr_cur_optimistic_delete: the entry's removal (the AHI's delete when the leaf is
//     hashed, a mini-transaction of redoPurgeRemove bytes).
//
// Simplified: the removal always succeeds (row_purge_poss_sec is false only when a later
// version of the row has the same secondary key again, which sysbench's random k makes rare),
// and never underflows a page (no pessimistic delete, no merge); the clustered record of a
// DEL_MARK is kept (sysbench re-inserts the id in the same transaction, the only delete the
// workloads log), so its removal is not modelled; the history truncation (free_history,
// purge_truncation_callback) and the table open per batch (trx_purge_table_open: MDL) charge
// nothing; undo pages are never freed or reused (they age out of the LRU); read views are
// opened by a transaction's first consistent read (Thread.OpenReadView) and closed at its end.

// UndoKind is an undo record's type as purge reads it (trx0rec.h TRX_UNDO_*).
type UndoKind uint8

const (
	// UndoUpdKey is TRX_UNDO_UPD_EXIST_REC of an update that changed an indexed column: the
	// old secondary entries were delete-marked (UPDATE SET k=k+1).
	UndoUpdKey UndoKind = iota
	// UndoUpdNoKey is TRX_UNDO_UPD_EXIST_REC with no indexed column changed: purge only
	// parses it (UPD_NODE_NO_ORD_CHANGE).
	UndoUpdNoKey
	// UndoDelMark is TRX_UNDO_DEL_MARK_REC (DELETE): the secondary entries were
	// delete-marked.
	UndoDelMark
	// UndoUpdDel is TRX_UNDO_UPD_DEL_REC (an INSERT over a delete-marked record): purge
	// skips the secondaries (row_purge_upd_exist_or_extern).
	UndoUpdDel
)

// MaxPurgeSec is the most secondary entries an undo record names; a table with more
// secondary indexes has only its first MaxPurgeSec purged.
const MaxPurgeSec = 4

// UndoRec is one undo record: its kind, table and row, the undo page it was written to, and
// the leaves (leaf numbers) of the delete-marked secondary entries, one per secondary index
// in order, NSec of them.
type UndoRec struct {
	Tab  *schema.Table
	Kind UndoKind
	NSec uint8
	ID   int64
	Page schema.PageID
	Sec  [MaxPurgeSec]int64
}

// PurgeStats are purge's cumulative counters.
type PurgeStats struct {
	// Records are undo records purged, Removed the delete-marked secondary entries removed,
	// Lookups the page lookups purge made (undo pages and B-tree pages), Batches its batches.
	Records, Removed, Lookups, Batches uint64
	// DelMarked counts secondary entries the workload delete-marked (committed); Committed
	// the transactions that entered the history list, Purged those that left it.
	DelMarked, Committed, Purged uint64
}

// redoPurgeRemove is the redo of one entry's removal mtr: purge's share per oltp_read_write
// transaction, ~100 bytes for its 2 removals (docs/mariadb-write-path.md §3.3).
const redoPurgeRemove = 50

// mysqlPurgeTimeout is SRV_PURGE_MAX_TIMEOUT (MySQL srv0srv.cc srv_purge_coordinator_suspend).
const mysqlPurgeTimeout = 10 * sim.Millisecond

// purgeSys is purge_sys: the history list, the open read views and the threads.
type purgeSys struct {
	s *Server
	// hist is the history list's records, oldest first from head; txns the records per
	// committed transaction (its trx_no is its index + base).
	hist    []UndoRec
	head    int
	txns    []int32
	txnHead int
	trxNo   uint64 // the next transaction number to commit (trx_sys.get_max_trx_id)
	base    uint64 // the trx_no of txns[txnHead]
	// views holds each open read view's low limit (the trx_no that was next when it opened).
	views map[*Thread]uint64
	// pending holds each thread's undo records of its open transaction.
	pending map[*Thread][]UndoRec

	coord   *Thread
	cpath   []schema.PageID // the coordinator's search path
	workers []*purgeWorker
	asleep  bool
	running int // workers still working on the batch
	pages   map[schema.PageID]struct{}
	byTab   map[*schema.Table]int
	groups  [][]UndoRec
	// inBatch counts the transactions of the running batch: they leave the history list
	// when it ends (purge_truncation_callback → free_history).
	inBatch int
}

type purgeWorker struct {
	t    *Thread
	work []UndoRec
	idle bool
	path []schema.PageID
}

// startPurge spawns the purge coordinator and innodb_purge_threads − 1 workers.
func (s *Server) startPurge() {
	n := max(s.Scenario.MySQL.PurgeThreads, 1)
	p := &purgeSys{s: s, views: map[*Thread]uint64{}, pending: map[*Thread][]UndoRec{},
		pages: map[schema.PageID]struct{}{}, byTab: map[*schema.Table]int{}}
	s.purge = p
	p.coord = s.Spawn("purge_coordinator", "purge", p.coordinator)
	for i := 1; i < n; i++ {
		w := &purgeWorker{}
		p.workers = append(p.workers, w)
		w.t = s.Spawn(fmt.Sprintf("purge_worker[%d]", i), "purge", func(t *Thread) { p.worker(w) })
	}
}

// HistoryLength is trx_sys.history_size(): committed transactions whose update undo is not
// purged yet (Innodb_history_list_length).
func (s *Server) HistoryLength() int {
	if s.purge == nil {
		return 0
	}
	return len(s.purge.txns) - s.purge.txnHead + s.purge.inBatch
}

// LogUndo records an undo record of t's open transaction for purge (a no-op without a purge
// system: a server driven by a test without StartBackground).
func (t *Thread) LogUndo(r UndoRec) {
	if p := t.Srv.purge; p != nil {
		p.pending[t] = append(p.pending[t], r)
	}
}

// EndTrx ends t's transaction: committed, its undo records enter the history list; rolled
// back, they are dropped. Its read view closes.
func (t *Thread) EndTrx(commit bool) {
	p := t.Srv.purge
	if p == nil {
		return
	}
	delete(p.views, t)
	recs := p.pending[t]
	if len(recs) == 0 {
		return
	}
	p.pending[t] = recs[:0]
	if !commit {
		return
	}
	for _, r := range recs {
		t.Srv.Stats.Purge.DelMarked += uint64(r.NSec)
	}
	p.hist = append(p.hist, recs...)
	p.txns = append(p.txns, int32(len(recs)))
	p.trxNo++
	t.Srv.Stats.Purge.Committed++
}

// OpenReadView assigns t's transaction a read view at its first consistent read
// (trx_assign_read_view): it holds back purge of what commits after it.
func (t *Thread) OpenReadView() {
	p := t.Srv.purge
	if p == nil {
		return
	}
	if _, ok := p.views[t]; !ok {
		p.views[t] = p.trxNo
	}
}

// limit is the oldest read view's low limit (purge_sys.clone_oldest_view): transactions
// numbered below it may be purged.
func (p *purgeSys) limit() uint64 {
	l := p.trxNo
	for _, v := range p.views {
		l = min(l, v)
	}
	return l
}

func (p *purgeSys) coordinator(t *Thread) {
	s := p.s
	mariadb := s.Ver.Flavor == version.MariaDB
	for {
		for p.batch(t) > 0 {
		}
		t.Pay()
		if mariadb {
			// srv_master_callback runs every second (srv_master_timer).
			t.Sleep(sim.Second - t.Now()%sim.Second)
		} else {
			t.Sleep(mysqlPurgeTimeout)
		}
	}
}

// batch is trx_purge: it returns the undo pages handled.
func (p *purgeSys) batch(t *Thread) int {
	s := p.s
	lim := p.limit()
	t.Charge(sim.Time(len(p.views)) * s.Costs.ListNode) // clone_oldest_view walks trx_sys's views
	clear(p.pages)
	clear(p.byTab)
	for i := range p.groups {
		p.groups[i] = p.groups[i][:0]
	}
	size := max(s.Scenario.MySQL.PurgeBatchSize, 1)
	threads := 1 + len(p.workers)
	for p.txnHead < len(p.txns) && p.base < lim && len(p.pages) < size {
		n := int(p.txns[p.txnHead])
		for _, r := range p.hist[p.head : p.head+n] {
			if _, ok := p.pages[r.Page]; !ok {
				p.pages[r.Page] = struct{}{}
				t.Read(r.Page)          // purge_sys_t::get_page: buffer-fixed for the batch
				s.Stats.Purge.Lookups++ // one lookup, hit or miss
			}
			g, ok := p.byTab[r.Tab]
			if !ok {
				g = len(p.byTab) % threads
				p.byTab[r.Tab] = g
			}
			for len(p.groups) <= g {
				p.groups = append(p.groups, nil)
			}
			p.groups[g] = append(p.groups[g], r)
		}
		p.head += n
		p.txnHead++
		p.base++
		p.inBatch++
	}
	p.compact()
	if len(p.pages) == 0 {
		return 0
	}
	s.Stats.Purge.Batches++
	for i, w := range p.workers {
		if i+1 < len(p.groups) && len(p.groups[i+1]) > 0 {
			w.work = p.groups[i+1]
			p.running++
			if w.idle {
				w.idle = false
				w.t.Proc.Wake(0)
			}
		}
	}
	if len(p.groups) > 0 {
		p.purgeRecs(t, p.groups[0], &p.cpath)
	}
	t.Pay()
	for p.running > 0 {
		p.asleep = true
		t.Proc.Park()
	}
	s.Stats.Purge.Purged += uint64(p.inBatch)
	p.inBatch = 0
	return len(p.pages)
}

// compact drops the purged prefix of the history once it is most of it.
func (p *purgeSys) compact() {
	if p.head > 4096 && p.head*2 > len(p.hist) {
		p.hist = append(p.hist[:0], p.hist[p.head:]...)
		p.head = 0
	}
	if p.txnHead > 4096 && p.txnHead*2 > len(p.txns) {
		p.txns = append(p.txns[:0], p.txns[p.txnHead:]...)
		p.txnHead = 0
	}
}

func (p *purgeSys) worker(w *purgeWorker) {
	t := w.t
	for {
		if w.work == nil {
			t.Pay()
			w.idle = true
			t.Proc.Park()
			continue
		}
		p.purgeRecs(t, w.work, &w.path)
		w.work = nil
		t.Pay()
		p.running--
		if p.running == 0 && p.asleep {
			p.asleep = false
			p.coord.Proc.Wake(0)
		}
	}
}

// purgeRecs is row_purge for each record of one worker's share of a batch.
func (p *purgeSys) purgeRecs(t *Thread, recs []UndoRec, path *[]schema.PageID) {
	s := p.s
	for i := range recs {
		r := &recs[i]
		t.Charge(s.Costs.Row) // trx_undo_rec_get_pars, row_purge_parse_undo_rec
		s.Stats.Purge.Records++
		if r.Kind != UndoUpdKey && r.Kind != UndoDelMark {
			continue
		}
		for j := 0; j < int(r.NSec) && j < len(r.Tab.Secondary); j++ {
			p.removeSec(t, r, r.Tab.Secondary[j], r.Sec[j], path)
		}
	}
}

// removeSec is row_purge_remove_sec_if_poss_leaf for one delete-marked entry on leaf.
func (p *purgeSys) removeSec(t *Thread, r *UndoRec, sec *schema.Index, leaf int64, path *[]schema.PageID) {
	s := p.s
	before := t.Hits + t.Misses
	*path = sec.Path((*path)[:0], leaf)
	ixLeaf := (*path)[len(*path)-1]
	t.Search(sec, *path, true) // row_search_index_entry, BTR_PURGE_LEAF
	pk := r.Tab.Primary
	*path = pk.Path((*path)[:0], pk.LeafOf(r.ID))
	t.Search(pk, *path, false) // row_search_on_row_ref
	t.Read(r.Page)             // row_purge_is_unsafe: the older version in the undo log
	s.Stats.Purge.Lookups += t.Hits + t.Misses - before
	t.Change(sec, ixLeaf, Remove, redoPurgeRemove) // btr_cur_optimistic_delete's mtr
	s.Stats.Purge.Removed++
}
