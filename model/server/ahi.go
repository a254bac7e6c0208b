package server

import (
	"fmt"

	"github.com/ddlsim/ddlsim/model/bufpool"
	"github.com/ddlsim/ddlsim/model/schema"
	"github.com/ddlsim/ddlsim/sim"
)

// The adaptive hash index (btr0sea.cc, ha0ha.cc; docs/innodb-source.md §7, docs/model.md
// "Adaptive hash index") as a structure:
//   - which pages carry entries: the bufpool's per-frame mark (block->index != NULL) and its
//     per-space count (the table's share of index->search_info->ref_count);
//   - how many: a hashed leaf has one entry per record (the searches hash the index's unique
//     prefix), i.e. its index's records per leaf;
//   - built by searches (btr_search_info_update): no page of an index is built before the
//     index has had BTR_SEARCH_HASH_ANALYSIS + BTR_SEARCH_BUILD_LIMIT searches, and a page is
//     built when its n_hash_helps passes n_recs / BTR_SEARCH_PAGE_BUILD_LIMIT;
//   - partitions (innodb_adaptive_hash_index_parts): each one latch and one hash table of
//     pool_bytes / 512 / parts cells (btr_search_sys_create: curr_size / sizeof(void*) / 64);
//     all entries of one index live in one partition;
//   - costs, measured on this machine (model/calib): a page's entries are dropped by folding
//     each record (ahi_fold) and then, under the partition's X latch, deleting one node per
//     entry (ahi_node per chain node at α = entries / cells): the walk to the node, 1 + α/2,
//     and HASH_DELETE_AND_COMPACT's walk of the heap-top node's chain to relink it, 1 + α (the
//     newest node is at its chain's end: HASH_INSERT appends), so 2 + 1.5·α nodes; a build
//     folds each record and inserts under the X latch, α nodes each (ha_insert_for_fold
//     walks a chain of the average length to its end).
//
// Simplified: the AHI's lookups are not modelled as faster searches (the profile's page_hit
// is fitted with it on); a search's S latch costs nothing unless a writer holds the partition
// in X (then it waits for the release; a writer does not wait for readers to drain); the node
// heap's pool frames are not taken from the buffer pool.

const (
	ahiAnalysis       = 17  // BTR_SEARCH_HASH_ANALYSIS
	ahiBuildLimit     = 100 // BTR_SEARCH_BUILD_LIMIT
	ahiPageBuildLimit = 16  // BTR_SEARCH_PAGE_BUILD_LIMIT
)

// ahiPart is one AHI partition: its latch and its hash table's size and load. The latch is
// an rw-latch: writers (builds, drops) take latch, a sim mutex, in X; a search needs it in S,
// which only an X holder blocks — it waits in readers until the holder releases.
type ahiPart struct {
	latch   *sim.Mutex
	readers []*Thread
	cells   float64
	entries int64
}

// xLock and xUnlock take and release the partition's latch in X; xUnlock lets the searches
// that waited for it go on.
func (t *Thread) xLock(p *ahiPart) { t.Lock(p.latch) }

func (t *Thread) xUnlock(p *ahiPart) {
	t.Unlock(p.latch)
	for _, r := range p.readers {
		r.Proc.Wake(0)
	}
	p.readers = p.readers[:0]
}

// sWait is a search's S acquisition: it waits while a writer holds the latch in X.
func (t *Thread) sWait(p *ahiPart) {
	t.Pay() // may wait for a core: nothing may wake the thread between the test and the Park
	for p.latch.Holder() != nil {
		p.readers = append(p.readers, t)
		start := t.Now()
		t.Proc.Park()
		t.Srv.Stats.AHIReadWaitNs += uint64(t.Now() - start)
	}
}

func (p *ahiPart) alpha() float64 {
	if p.cells <= 0 {
		return 0
	}
	return float64(p.entries) / p.cells
}

// ahiDeleteNodes and ahiInsertNodes are the chain nodes one delete and one insert visit at
// load factor alpha (model/calib's BenchmarkAHIDropPage counts both: at α = 2.3 and 8 they come
// out within 0.2% of these).
func ahiDeleteNodes(alpha float64) float64 { return 2 + 1.5*alpha }
func ahiInsertNodes(alpha float64) float64 { return alpha }

func (s *Server) newAHI() {
	n := max(s.Scenario.MySQL.AdaptiveHashIndexParts, 1)
	cells := float64(s.Scenario.MySQL.BufferPoolSize) / 512 / float64(n)
	for i := range n {
		name := "btr_search_latch"
		if n > 1 {
			name = fmt.Sprintf("btr_search_latches[%d]", i)
		}
		s.ahiParts = append(s.ahiParts, &ahiPart{latch: s.NewMutex(name), cells: cells})
	}
}

// ahiPartOf is the partition of index ix: btr_get_search_part folds (index id, space id); the
// model folds (space id, the index's first page).
func (s *Server) ahiPartOf(ix *schema.Index) *ahiPart {
	h := uint64(ix.Space)*0x9E3779B97F4A7C15 ^ uint64(ix.Base)*0xC2B2AE3D27D4EB4F
	h ^= h >> 29
	return s.ahiParts[h%uint64(len(s.ahiParts))]
}

// ahiOf returns the partition and entry count of frame f's AHI entries (nil when f has none).
func (s *Server) ahiOf(in *Instance, f bufpool.FrameID) (*ahiPart, int) {
	if !in.BP.HasAHI(f) {
		return nil, 0
	}
	key := in.BP.Key(f)
	if sp := s.Spaces.Get(key.Space()); sp != nil && sp.Table != nil {
		if ix := sp.Table.IndexOfPage(key.Page()); ix != nil {
			return s.ahiPartOf(ix), ix.LeafRecs
		}
	}
	// A page whose table is gone from the registry: count it in the first partition at a
	// primary-key leaf's size.
	return s.ahiParts[0], schema.NewSysbenchTable("", "", 0, 1, 0, s.PageSize).Primary.LeafRecs
}

// Searched is btr_search_info_update after a B-tree search of index ix that ended on leaf
// frame f of instance in, which the thread has just accessed: the index's search count, the
// block's n_hash_helps, and the page's AHI build when both pass their limits. A search also
// needs the partition's S latch: while a writer holds it, the search waits.
func (t *Thread) Searched(ix *schema.Index, in *Instance, f bufpool.FrameID) {
	s := t.Srv
	if !s.AHI {
		return
	}
	part := s.ahiPartOf(ix)
	key := in.BP.Key(f)
	if part.latch.Holder() != nil {
		t.sWait(part)
		if !in.BP.InLRU(f) || in.BP.Key(f) != key {
			return
		}
	}
	ix.Searches++
	bp := in.BP
	if bp.HasAHI(f) || ix.Searches <= ahiAnalysis+ahiBuildLimit || !ix.IsLeaf(key.Page()) {
		return
	}
	if bp.Help(f) <= ix.LeafRecs/ahiPageBuildLimit {
		return
	}
	// btr_search_build_page_hash_index: fold every record, then insert under the X latch
	// (8.0.3x+: x_lock_nowait, giving up when it is busy).
	n := ix.LeafRecs
	t.Charge(sim.Time(n) * s.Costs.AHIFold)
	if s.Traits.AHINoWaitBuild && part.latch.Holder() != nil {
		return
	}
	t.xLock(part)
	if bp.InLRU(f) && bp.Key(f) == key && !bp.HasAHI(f) {
		t.Charge(sim.Time(float64(n) * ahiInsertNodes(part.alpha()) * float64(s.Costs.AHINode)))
		bp.SetAHI(f, true)
		part.entries += int64(n)
		s.Stats.AHIBuilt++
	}
	t.xUnlock(part)
}

// dropAHI is btr_search_drop_page_hash_index for n entries of partition part: the folds
// outside the latch, the node deletes under its X latch. The caller has cleared the page's
// mark (or freed the page) and holds no buffer-pool list mutex, as the real callers release
// theirs first.
func (t *Thread) dropAHI(part *ahiPart, n int) {
	if part == nil || n == 0 {
		return
	}
	s := t.Srv
	t.Charge(sim.Time(n) * s.Costs.AHIFold)
	t.xLock(part)
	t.Charge(sim.Time(float64(n) * ahiDeleteNodes(part.alpha()) * float64(s.Costs.AHINode)))
	part.entries = max(part.entries-int64(n), 0)
	t.xUnlock(part)
	s.Stats.AHIPagesDropped++
}

// DropPageAHI drops frame f's AHI entries (if it has any) and clears its mark.
func (t *Thread) DropPageAHI(in *Instance, f bufpool.FrameID) bool {
	part, n := t.Srv.ahiOf(in, f)
	if part == nil {
		return false
	}
	in.BP.SetAHI(f, false)
	t.dropAHI(part, n)
	return true
}

// pendingAHI collects the AHI drops of pages freed under a list mutex, to be paid once it is
// released (buf_LRU_free_page drops a hashed page's entries after releasing LRU_list_mutex).
type pendingAHI struct {
	part []*ahiPart
	n    []int
}

// note records f's entries before f is freed.
func (p *pendingAHI) note(s *Server, in *Instance, f bufpool.FrameID) {
	if part, n := s.ahiOf(in, f); part != nil {
		p.part = append(p.part, part)
		p.n = append(p.n, n)
	}
}

// pay drops the noted entries; the caller holds no list mutex.
func (p *pendingAHI) pay(t *Thread) {
	for i, part := range p.part {
		t.dropAHI(part, p.n[i])
	}
	p.part, p.n = p.part[:0], p.n[:0]
}

// SpaceAHIPages is the number of the space's pages with AHI entries over all instances (the
// table's index->search_info->ref_count).
func (s *Server) SpaceAHIPages(space uint32) int {
	n := 0
	for _, in := range s.Inst {
		n += in.BP.SpaceAHI(space)
	}
	return n
}

// AHIEntries is the number of entries in every partition (for reports and tests).
func (s *Server) AHIEntries() (n int64) {
	for _, p := range s.ahiParts {
		n += p.entries
	}
	return n
}
