package bufpool

import (
	"fmt"
	"os"
	"unsafe"
)

// PageID names a page: tablespace id in the high 32 bits, page number in the low 32.
type PageID uint64

// MakePageID packs (space, page) into a PageID.
func MakePageID(space, page uint32) PageID { return PageID(uint64(space)<<32 | uint64(page)) }

// Space returns the tablespace id.
func (p PageID) Space() uint32 { return uint32(p >> 32) }

// Page returns the page number inside the tablespace.
func (p PageID) Page() uint32 { return uint32(p) }

func (p PageID) String() string { return fmt.Sprintf("%d:%d", p.Space(), p.Page()) }

// FrameID indexes a frame (a buf_block_t) inside one Instance.
type FrameID int32

// Nil is the null frame, the end of every list.
const Nil FrameID = -1

// IOFix mirrors buf_io_fix: an I/O in flight pins the frame in place.
type IOFix uint8

const (
	IONone  IOFix = iota // BUF_IO_NONE
	IORead               // BUF_IO_READ: being read in, not yet valid
	IOWrite              // BUF_IO_WRITE: being flushed
	IOPin                // BUF_IO_PIN: pinned by a scan that released the mutex
)

// InnoDB constants (include/buf0lru.h, include/buf0buf.h).
const (
	OldMinLen         = 512  // BUF_LRU_OLD_MIN_LEN: LRU_old defined only from this length
	OldTolerance      = 20   // BUF_LRU_OLD_TOLERANCE
	NonOldMinLen      = 5    // BUF_LRU_NON_OLD_MIN_LEN
	OldRatioDiv       = 1024 // BUF_LRU_OLD_RATIO_DIV
	OldRatioMin       = 51   // BUF_LRU_OLD_RATIO_MIN
	OldRatioMax       = OldRatioDiv
	DropSearchSize    = 1024 // BUF_LRU_DROP_SEARCH_SIZE
	DefaultOldPct     = 37   // innodb_old_blocks_pct
	DefaultOldTimeMs  = 1000 // innodb_old_blocks_time
	SearchScanDefault = 100  // BUF_LRU_SEARCH_SCAN_THRESHOLD
)

// Per-frame flag bits (cold; the LRU "old" bit lives in hotFrame.clock).
const (
	flInLRU   = 1 << 0
	flDirty   = 1 << 1
	flAHI     = 1 << 2
	flIOShift = 3 // two bits of IOFix
	flIOMask  = 3 << flIOShift
)

// oldBit is buf_page_t::old, kept beside the 31-bit freed_page_clock stamp (InnoDB's
// freed_page_clock is itself a 31-bit field) so a hit touches one record.
const oldBit = 1 << 31

// hotFrame is what a page hit reads: the key compare of Lookup, the io_fix and flag tests,
// the buffer-fix, the make-young test of Touch, the AHI's help counter and the lazy drop's
// space version. Keeping it in one 24-byte record makes a hit two cache misses (hash slot,
// this record; one record in four straddles two lines) instead of five (the slot, the key
// and clock, the flags, the fix count, the version each in an array of its own), at the same
// bytes per frame as the separate arrays.
type hotFrame struct {
	key      PageID
	access   uint32 // 1 + virtual ms of first access (buf_page_t::access_time); 0 = never
	clock    uint32 // bit 31: old flag; low 31 bits: freed_page_clock when last made young
	fix      uint16 // buf_fix_count
	observer uint16 // flush observer id, 0 = none
	version  uint16 // space version the page was read under (lazy drop)
	flags    uint8
	helps    uint8 // block->n_hash_helps (saturating): searches that the AHI would have served
}

// Stats counts the events InnoDB reports in SHOW ENGINE INNODB STATUS.
type Stats struct {
	MadeYoung    uint64 // n_pages_made_young (old pages moved to the head)
	NotMadeYoung uint64 // n_pages_not_made_young (old pages touched within old_blocks_time)
	Evicted      uint64 // removals that ticked freed_page_clock
	Compactions  uint64 // flush-list sequence renumberings
	// Added and Removed count pages placed in and removed from the pool (AddToLRU,
	// Remove): Added − Removed is the LRU length at every moment (page conservation, which
	// the simulation fuzzer asserts).
	Added, Removed uint64
}

// Instance is one buffer-pool instance: frames, free list, LRU with midpoint insertion,
// flush list with order statistics, page hash, and per-space membership. Pure state.
type Instance struct {
	n int32

	// Per-frame arrays, all indexed by FrameID.
	hot       []hotFrame
	lruPrev   []FrameID // towards the head (UT_LIST_GET_PREV); unused while free
	lruNext   []FrameID // towards the tail; the free list's link while free
	oldestMod []uint64  // oldest_modification LSN; 0 when clean
	seq       []uint32  // flush-list sequence slot while dirty
	spPrev    []FrameID
	spNext    []FrameID

	// Page hash (hash.go).
	slots     []uint32
	hcap      uint32
	frameMask uint32
	tagMask   uint32 // fingerprint bits of a slot
	distShift uint8  // position of a slot's probe-distance field
	distSat   uint32 // largest stored probe distance, meaning "this or more"
	sink      uint32 // keeps AddPagesOld's slot prefetch loads alive

	// Free list: singly linked LIFO through lruNext (UT_LIST_ADD_FIRST / GET_FIRST).
	freeHead FrameID
	freeLen  int32
	// taken counts frames popped by TakeFree and not yet placed in the LRU or returned: a
	// block in state BUF_BLOCK_READY_FOR_USE, on neither list.
	taken int32

	// LRU.
	lruHead, lruTail, lruOld FrameID
	lruLen, oldLen           int32
	oldRatio                 uint32
	oldTimeMs                uint32
	youngThresh              uint64 // curr_size*(DIV-ratio)/(DIV*4) of buf_page_peek_if_young
	freedClock               uint64
	scanItr                  FrameID // lru_scan_itr of buf_LRU_free_from_common_LRU_list
	lruHP                    FrameID // LRUHp: a walker's saved position, adjusted on removal

	// Flush list (flush.go): implicit, ordered by sequence slot.
	fslot   []FrameID // slot -> frame (valid where the bit is set)
	fbits   []uint64  // slot occupancy
	fsum    []uint64  // bit w set iff fbits[w] != 0
	fen     []int32   // Fenwick tree over fbits words (1-based)
	fnext   uint32    // next slot to hand out (the head end)
	fmin    uint32    // no occupied word below this index
	flen    int32
	flushHP FrameID
	epoch   uint32 // bumped by every compaction

	// Spaces and observers (space.go).
	spaceIdx  map[uint32]int32
	spaces    []spaceRec
	freeSpace []int32
	obs       []obsRec

	Stats Stats
}

// New builds an instance of frames frames, all free, with innodb_old_blocks_pct = oldPct.
func New(frames int, oldPct int) *Instance {
	if frames <= 0 || frames >= 1<<28 {
		panic(fmt.Sprintf("bufpool: frames %d out of range", frames))
	}
	n := int32(frames)
	in := &Instance{
		n:         n,
		hot:       make([]hotFrame, n),
		lruPrev:   make([]FrameID, n),
		lruNext:   make([]FrameID, n),
		oldestMod: make([]uint64, n),
		seq:       make([]uint32, n),
		spPrev:    make([]FrameID, n),
		spNext:    make([]FrameID, n),
		lruHead:   Nil, lruTail: Nil, lruOld: Nil,
		scanItr: Nil, lruHP: Nil, flushHP: Nil,
		oldTimeMs: DefaultOldTimeMs,
		spaceIdx:  make(map[uint32]int32),
		obs:       make([]obsRec, 1),
	}
	// buf_chunk_init appends blocks in address order, so the first free block is frame 0.
	for i := int32(0); i < n-1; i++ {
		in.lruNext[i] = FrameID(i + 1)
	}
	in.lruNext[n-1] = Nil
	in.freeHead, in.freeLen = 0, n
	in.initHash()
	in.initFlush()
	if os.Getenv("DDLSIM_NOHUGE") == "" {
		adviseHuge(unsafe.Pointer(&in.hot[0]), uintptr(len(in.hot))*unsafe.Sizeof(in.hot[0]))
		adviseHuge(unsafe.Pointer(&in.slots[0]), uintptr(len(in.slots))*4)
	}
	in.SetOldPct(oldPct)
	return in
}

// SetOldPct sets innodb_old_blocks_pct (buf_LRU_old_ratio_update_instance).
func (in *Instance) SetOldPct(pct int) {
	r := uint32(max(pct, 0)) * OldRatioDiv / 100
	r = min(max(r, OldRatioMin), OldRatioMax)
	in.oldRatio = r
	in.youngThresh = uint64(in.n) * uint64(OldRatioDiv-r) / (OldRatioDiv * 4)
	if in.lruLen >= OldMinLen {
		in.adjustOldLen()
	}
}

// SetOldBlocksTime sets innodb_old_blocks_time in ms (buf_LRU_old_threshold_ms).
func (in *Instance) SetOldBlocksTime(ms uint32) { in.oldTimeMs = ms }

// Frames is the instance size (curr_size).
func (in *Instance) Frames() int { return int(in.n) }

// Len is the number of frames holding a page (the LRU length).
func (in *Instance) Len() int { return int(in.lruLen) }

// FreeLen is the free-list length.
func (in *Instance) FreeLen() int { return int(in.freeLen) }

// Taken is the number of frames taken from the free list and not yet placed.
func (in *Instance) Taken() int { return int(in.taken) }

// LRULen is the LRU length.
func (in *Instance) LRULen() int { return int(in.lruLen) }

// OldLen is LRU_old_len, the old-sublist length (0 while LRU < OldMinLen).
func (in *Instance) OldLen() int { return int(in.oldLen) }

// FlushLen is the flush-list length.
func (in *Instance) FlushLen() int { return int(in.flen) }

// DirtyCount is the number of dirty frames (equal to FlushLen).
func (in *Instance) DirtyCount() int { return int(in.flen) }

// FreedClock is buf_pool->freed_page_clock.
func (in *Instance) FreedClock() uint64 { return in.freedClock }

// Key is the page held by f (meaningless for a free frame).
func (in *Instance) Key(f FrameID) PageID { return in.hot[f].key }

// InLRU reports whether f holds a page (else it is free).
func (in *Instance) InLRU(f FrameID) bool { return in.hot[f].flags&flInLRU != 0 }

// IsOld reports buf_page_is_old.
func (in *Instance) IsOld(f FrameID) bool { return in.hot[f].clock&oldBit != 0 }

// IsDirty reports whether f is on the flush list.
func (in *Instance) IsDirty(f FrameID) bool { return in.hot[f].flags&flDirty != 0 }

// OldestMod is the LSN of f's first modification since it was last clean (0 if clean).
func (in *Instance) OldestMod(f FrameID) uint64 { return in.oldestMod[f] }

// FirstAccessMs is buf_page_is_accessed: the ms of the first Touch, ok=false if never.
func (in *Instance) FirstAccessMs(f FrameID) (ms uint32, ok bool) {
	a := in.hot[f].access
	return a - 1, a != 0
}

// HasAHI reports whether adaptive-hash-index entries point to f (block->index != NULL).
func (in *Instance) HasAHI(f FrameID) bool { return in.hot[f].flags&flAHI != 0 }

// SetAHI marks or clears f's adaptive-hash-index entries (block->index). The space's count of
// such pages (SpaceAHI) follows.
func (in *Instance) SetAHI(f FrameID, on bool) {
	was := in.hot[f].flags&flAHI != 0
	if on == was {
		return
	}
	if on {
		in.hot[f].flags |= flAHI
		in.spaceOf(f).ahi++
	} else {
		in.hot[f].flags &^= flAHI
		in.spaceOf(f).ahi--
	}
}

// Helps is f's n_hash_helps: searches of its page that its AHI recommendation would have
// served, saturating at 255.
func (in *Instance) Helps(f FrameID) int { return int(in.hot[f].helps) }

// Help counts one more such search of f and returns the new count.
func (in *Instance) Help(f FrameID) int {
	if in.hot[f].helps < 255 {
		in.hot[f].helps++
	}
	return int(in.hot[f].helps)
}

// IOFix is f's io_fix state.
func (in *Instance) IOFix(f FrameID) IOFix { return IOFix(in.hot[f].flags&flIOMask) >> flIOShift }

// SetIOFix sets f's io_fix state.
func (in *Instance) SetIOFix(f FrameID, s IOFix) {
	in.hot[f].flags = in.hot[f].flags&^flIOMask | uint8(s)<<flIOShift
}

// Fix increments buf_fix_count.
func (in *Instance) Fix(f FrameID) {
	if in.hot[f].fix == ^uint16(0) {
		panic("bufpool: buf_fix_count overflow")
	}
	in.hot[f].fix++
}

// Unfix decrements buf_fix_count.
func (in *Instance) Unfix(f FrameID) {
	if in.hot[f].fix == 0 {
		panic("bufpool: unfix of an unfixed frame")
	}
	in.hot[f].fix--
}

// FixCount is buf_fix_count.
func (in *Instance) FixCount(f FrameID) int { return int(in.hot[f].fix) }

// SpaceVersion is the space version recorded for f (lazy drop, WL#14100).
func (in *Instance) SpaceVersion(f FrameID) uint16 { return in.hot[f].version }

// SetSpaceVersion records the space version f was read under. 16 bits: a stale page would
// have to survive 65,536 truncations of its space to be mistaken for a live one.
func (in *Instance) SetSpaceVersion(f FrameID, v uint16) { in.hot[f].version = v }

// Observer is f's flush observer (0 = none).
func (in *Instance) Observer(f FrameID) uint16 { return in.hot[f].observer }

// readyForReplace is buf_flush_ready_for_replace: clean, unfixed, no I/O.
func (in *Instance) readyForReplace(f FrameID) bool {
	return in.hot[f].flags&(flDirty|flIOMask) == 0 && in.hot[f].fix == 0
}

// Replaceable reports buf_flush_ready_for_replace(f).
func (in *Instance) Replaceable(f FrameID) bool { return in.readyForReplace(f) }

// TakeFree pops the free-list head (buf_LRU_get_free_only), or Nil.
func (in *Instance) TakeFree() FrameID {
	f := in.freeHead
	if f == Nil {
		return Nil
	}
	in.freeHead = in.lruNext[f]
	in.freeLen--
	in.taken++
	in.lruNext[f] = Nil
	return f
}

// AddToLRU installs page p in frame f (just taken from the free list): page hash, LRU and
// space membership. old=true is buf_page_init_for_read (midpoint insertion after LRU_old);
// old=false is buf_page_create (head). The first access time stays unset until Touch, as
// buf_page_set_accessed does, so read-ahead pages remain "never accessed".
func (in *Instance) AddToLRU(f FrameID, p PageID, old bool) {
	if in.hot[f].flags&flInLRU != 0 {
		panic("bufpool: AddToLRU of a frame already in the LRU")
	}
	h := &in.hot[f]
	h.key = p
	h.access = 0
	h.clock = 0 // buf_page_init: freed_page_clock = 0
	in.hot[f].flags = flInLRU
	in.hot[f].fix = 0
	in.hot[f].helps = 0
	in.hot[f].observer = 0
	in.hot[f].version = 0
	in.oldestMod[f] = 0
	if in.taken > 0 {
		in.taken--
	}
	in.hashInsert(f)
	in.lruAddLow(f, old)
	in.spaceAdd(f)
	in.Stats.Added++
}

// Remove frees f: flush list (if dirty), page hash, LRU, space membership, then the free
// list head. InnoDB ticks freed_page_clock in buf_LRU_block_remove_hashed, i.e. on every
// removal, DDL removals included; tick=false leaves the clock alone.
func (in *Instance) Remove(f FrameID, tick bool) {
	if in.hot[f].flags&flInLRU == 0 {
		panic("bufpool: Remove of a free frame")
	}
	if in.hot[f].fix != 0 {
		// buf_LRU_free_page refuses a page that cannot be relocated: a thread holds it.
		panic("bufpool: Remove of a buffer-fixed frame")
	}
	if in.hot[f].flags&flDirty != 0 {
		in.MarkClean(f)
	}
	in.SetAHI(f, false) // the caller has dropped the entries (and paid for it)
	in.hashDelete(f)
	in.lruRemove(f)
	in.spaceRemove(f)
	in.Stats.Removed++
	if tick {
		in.freedClock++
		in.Stats.Evicted++
	}
	in.hot[f].flags = 0
	in.hot[f].fix = 0
	in.hot[f].observer = 0
	in.lruPrev[f] = Nil
	in.lruNext[f] = in.freeHead
	in.freeHead = f
	in.freeLen++
}

// Touch records an access to f at virtual time nowMs (buf_page_set_accessed) and reports
// whether it should now be moved to the LRU head (buf_page_peek_if_too_old). The caller
// takes the LRU mutex and calls MakeYoung when it returns true; a hit that returns false
// takes no LRU mutex, as in InnoDB.
func (in *Instance) Touch(f FrameID, nowMs uint32) bool {
	h := &in.hot[f]
	if h.access == 0 {
		h.access = nowMs + 1
	}
	if in.freedClock == 0 {
		// No eviction yet: warm-up or in-memory workload; nothing moves.
		return false
	}
	if h.clock&oldBit != 0 && in.oldTimeMs != 0 {
		if nowMs-(h.access-1) >= in.oldTimeMs {
			return true
		}
		in.Stats.NotMadeYoung++
		return false
	}
	// buf_page_peek_if_young: young while the clock has not advanced by ~1/4 of the young
	// sublist's share of the pool since the page was last put at the head.
	stamp := uint64(h.clock &^ oldBit)
	return in.freedClock&0x7FFFFFFF >= stamp+in.youngThresh
}

// MakeYoung moves f to the LRU head (buf_LRU_make_block_young).
func (in *Instance) MakeYoung(f FrameID) {
	if in.hot[f].clock&oldBit != 0 {
		in.Stats.MadeYoung++
	}
	in.lruRemove(f)
	in.lruAddLow(f, false)
}

// EvictCandidate is the search of buf_LRU_free_from_common_LRU_list: from lru_scan_itr
// (reset to the tail when unset or pointing at an old page, LRUItr::start) towards the
// head, up to maxScan frames (maxScan <= 0: the whole list, scan_all), for a frame that
// buf_flush_ready_for_replace accepts. It returns that frame (not yet removed; the caller
// drops its AHI entries and calls Remove) or Nil, and the number of frames examined.
func (in *Instance) EvictCandidate(maxScan int) (FrameID, int) {
	f := in.scanItr
	if f == Nil || in.hot[f].clock&oldBit != 0 {
		f = in.lruTail
	}
	scanned := 0
	for f != Nil && (maxScan <= 0 || scanned < maxScan) {
		prev := in.lruPrev[f]
		in.scanItr = prev
		scanned++
		if in.readyForReplace(f) {
			return f, scanned
		}
		f = prev
	}
	return Nil, scanned
}

// LRUHead is the youngest frame.
func (in *Instance) LRUHead() FrameID { return in.lruHead }

// LRUTail is the oldest frame, where eviction and DDL scans start.
func (in *Instance) LRUTail() FrameID { return in.lruTail }

// LRUPrev is UT_LIST_GET_PREV: the neighbour towards the head.
func (in *Instance) LRUPrev(f FrameID) FrameID { return in.lruPrev[f] }

// LRUNext is UT_LIST_GET_NEXT: the neighbour towards the tail.
func (in *Instance) LRUNext(f FrameID) FrameID { return in.lruNext[f] }

// LRUOld is buf_pool->LRU_old, the first (head-most) old frame, or Nil.
func (in *Instance) LRUOld() FrameID { return in.lruOld }

// SetLRUHP saves a walker's position (LRUHp::set). If that frame leaves the LRU, the hazard
// pointer moves to its neighbour towards the head (LRUHp::adjust).
func (in *Instance) SetLRUHP(f FrameID) { in.lruHP = f }

// LRUHP returns the saved LRU position.
func (in *Instance) LRUHP() FrameID { return in.lruHP }

// LRUFromTail iterates the LRU from the tail towards the head. The loop body may Remove or
// MakeYoung the yielded frame (the next one is read first, as InnoDB reads prev_bpage), but
// not its head-side neighbour.
func (in *Instance) LRUFromTail() func(yield func(FrameID) bool) {
	return func(yield func(FrameID) bool) {
		for f := in.lruTail; f != Nil; {
			prev := in.lruPrev[f]
			if !yield(f) {
				return
			}
			f = prev
		}
	}
}

// fmix64 is MurmurHash3's finalizer: page ids are dense per space, so they need mixing.
func fmix64(k uint64) uint64 {
	k ^= k >> 33
	k *= 0xff51afd7ed558ccd
	k ^= k >> 33
	k *= 0xc4ceb9fe1a85ec53
	k ^= k >> 33
	return k
}

// warmBatch is how many page-hash slots AddPagesOld loads ahead of inserting.
const warmBatch = 32

// AddPagesOld installs pages, in order, each in the frame TakeFree gives it, at the LRU
// midpoint (AddToLRU with old=true), setting the AHI mark when ahi: exactly the state that
// TakeFree, AddToLRU(f, p, true) and SetAHI(f, true) page by page leave. It is for a bulk
// fill (the warm-up): the home hash slots of a batch of pages are read before the batch is
// inserted, so their cache misses overlap instead of coming one insert at a time. The
// instance must have len(pages) free frames.
func (in *Instance) AddPagesOld(pages []PageID, ahi bool) {
	if len(pages) > int(in.freeLen) {
		panic("bufpool: AddPagesOld of more pages than free frames")
	}
	for len(pages) > 0 {
		b := pages[:min(len(pages), warmBatch)]
		pages = pages[len(b):]
		var sink uint32
		for _, p := range b {
			h, _ := in.home(p)
			sink |= in.slots[h]
		}
		in.sink = sink
		for _, p := range b {
			f := in.TakeFree()
			in.AddToLRU(f, p, true)
			if ahi {
				in.SetAHI(f, true)
			}
		}
	}
}
