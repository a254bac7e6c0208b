package server

import (
	"github.com/ddlsim/ddlsim/model/bufpool"
	"github.com/ddlsim/ddlsim/model/schema"
	"github.com/ddlsim/ddlsim/sim"
)

// ChangeOp is what a record change does to its leaf, as the AHI sees it (docs/cpu-model.md
// §1, §2.3).
type ChangeOp uint8

const (
	// UpdateInPlace is btr_cur_update_in_place (the same size: SET k=k+1 on the clustered
	// record, SET c=?): on a hashed page it holds the partition latch in X around the update,
	// the entries unchanged (ahi_latch_x).
	UpdateInPlace ChangeOp = iota
	// DeleteMark is a delete mark (row_upd_del_mark_clust_rec, a secondary entry's mark): the
	// hash is not touched; purge's removal is.
	DeleteMark
	// Insert is a record inserted (btr_cur_optimistic_insert):
	// btr_search_update_hash_on_insert on a hashed page (ahi_rec_insert).
	Insert
	// Update is btr_cur_optimistic_update of a record that is deleted and re-inserted on its
	// page (the insert of a delete-marked id, row_ins_clust_index_entry_by_modify):
	// btr_search_update_hash_on_delete, then the insert's (ahi_rec_delete + ahi_rec_insert).
	Update
	// Remove is btr_cur_optimistic_delete of a delete-marked record (purge's
	// row_purge_remove_sec_if_poss_leaf): btr_search_update_hash_on_delete (ahi_rec_delete).
	Remove
)

// Change is the mini-transaction of one record change on leaf of index ix, which the thread
// has just searched for writing (Search with write): the AHI's maintenance when the leaf is
// hashed, under the partition's X latch, and the mtr's commit with redo bytes of redo
// (mtr_commit + redo_kib per KiB). Each cost is opt-in: a profile that gives none of the
// AHI's write costs (ahi_rec_insert, ahi_rec_delete, ahi_latch_x) takes no partition latch
// here, and one without mtr_commit and redo_kib charges no mtr, so a run without them is
// what it was before they existed.
//
// Simplified: the redo bytes are charged as CPU only; the LSN still advances by the model's
// flat redo per modified page (Thread.dirty), so the checkpoint age does not yet follow the
// source's record sizes.
func (t *Thread) Change(ix *schema.Index, leaf schema.PageID, op ChangeOp, redo int) {
	s := t.Srv
	c := &s.Costs.Path
	if s.AHI && c.AHIRecInsert+c.AHIRecDelete+c.AHILatchX > 0 {
		t.maintainAHI(ix, leaf, op)
	}
	t.Mtr(redo)
}

// Mtr is the commit of a mini-transaction that wrote redo bytes of redo (mtr_t::commit →
// finish_writer: the log latch, the LSN, the copy into the log buffer, the CRC-32C).
func (t *Thread) Mtr(redo int) {
	s := t.Srv
	c := &s.Costs.Path
	if c.MtrCommit == 0 && c.RedoKiB == 0 {
		return
	}
	t.Charge(c.MtrCommit + perKiB(int64(redo), c.RedoKiB))
	s.Paths.Mtrs++
	s.Paths.RedoBytes += uint64(redo)
}

// maintainAHI is the AHI's part of a record change on a hashed leaf.
func (t *Thread) maintainAHI(ix *schema.Index, leaf schema.PageID, op ChangeOp) {
	s := t.Srv
	c := &s.Costs.Path
	if op == DeleteMark {
		return
	}
	// The leaf is looked up again rather than taken from the caller's Search: the model does
	// not buffer-fix the page between the search and the change (the real mtr holds the page
	// latch), and the thread may have yielded its core in between, so the frame Search found
	// can have been evicted and reused. One hash probe, on the opt-in path only.
	in := s.InstanceOf(leaf)
	f := in.BP.Lookup(bufpool.PageID(leaf))
	if f == bufpool.Nil || !in.BP.HasAHI(f) {
		return
	}
	part := s.ahiPartOf(ix)
	var d sim.Time
	switch op {
	case UpdateInPlace:
		d = c.AHILatchX
	case Insert:
		d = c.AHIRecInsert
	case Update:
		d = c.AHIRecDelete + c.AHIRecInsert
	case Remove:
		d = c.AHIRecDelete
	}
	t.xLock(part)
	t.Charge(d)
	switch {
	case op == Insert:
		part.entries++
	case op == Remove && part.entries > 0:
		part.entries--
	}
	t.xUnlock(part)
	s.Paths.AHIRecChanges++
	s.Paths.AHIWriteLatches++
}
