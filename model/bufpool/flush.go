package bufpool

import "math/bits"

// The flush list is implicit. buf_flush_insert_into_flush_list always inserts at the head,
// so list order is insertion order: each MarkDirty takes the next sequence slot, and the
// list from tail (oldest) to head (newest) is the occupied slots in increasing order.
//
//   fslot[s]  frame in slot s          fbits  slot occupancy bitmap
//   seq[f]    slot of dirty frame f    fsum   summary: which fbits words are non-zero
//   fen       Fenwick tree of per-word popcounts
//
// Rank from the tail (the number of flush-list nodes a tail walk passes before reaching f)
// is fen-prefix(word) + popcount(bits below f in its word): O(log n). Walking to the next
// or previous node is a bit scan, O(1) amortised via fsum. Slots freed by MarkClean stay
// holes until the slot space (1.5 x frames) is exhausted; then compact renumbers the live
// nodes 0..len-1 in O(frames), order preserved, which happens at most once per 0.5 x frames
// insertions. Memory: 4 (seq) + 6 (fslot) + ~0.3 (bitmaps, Fenwick) bytes per frame.

func (in *Instance) initFlush() {
	c := (uint32(in.n) + uint32(in.n)/2 + 63) &^ 63
	in.fslot = make([]FrameID, c)
	w := c / 64
	in.fbits = make([]uint64, w)
	in.fsum = make([]uint64, (w+63)/64)
	in.fen = make([]int32, w+1)
}

func (in *Instance) fenAdd(w uint32, d int32) {
	n := uint32(len(in.fen) - 1)
	for i := w + 1; i <= n; i += i & -i {
		in.fen[i] += d
	}
}

// fenPrefix is the number of occupied slots in words [0, w).
func (in *Instance) fenPrefix(w uint32) int {
	s := int32(0)
	for i := w; i > 0; i &= i - 1 {
		s += in.fen[i]
	}
	return int(s)
}

func (in *Instance) setSlot(s uint32) {
	w := s >> 6
	if in.fbits[w] == 0 {
		in.fsum[w>>6] |= 1 << (w & 63)
	}
	in.fbits[w] |= 1 << (s & 63)
	in.fenAdd(w, 1)
}

func (in *Instance) clearSlot(s uint32) {
	w := s >> 6
	in.fbits[w] &^= 1 << (s & 63)
	if in.fbits[w] == 0 {
		in.fsum[w>>6] &^= 1 << (w & 63)
	}
	in.fenAdd(w, -1)
}

// nextSlot returns the first occupied slot >= s, or -1.
func (in *Instance) nextSlot(s uint32) int64 {
	w := s >> 6
	if int(w) >= len(in.fbits) {
		return -1
	}
	if b := in.fbits[w] >> (s & 63); b != 0 {
		return int64(s) + int64(bits.TrailingZeros64(b))
	}
	// Find the next non-empty word through the summary.
	w++
	for sw := w >> 6; int(sw) < len(in.fsum); sw++ {
		m := in.fsum[sw]
		if sw == w>>6 {
			m &= ^uint64(0) << (w & 63)
		}
		if m != 0 {
			ww := sw<<6 + uint32(bits.TrailingZeros64(m))
			return int64(ww)<<6 + int64(bits.TrailingZeros64(in.fbits[ww]))
		}
	}
	return -1
}

// prevSlot returns the last occupied slot < s, or -1.
func (in *Instance) prevSlot(s uint32) int64 {
	if s == 0 {
		return -1
	}
	s--
	w := s >> 6
	if b := in.fbits[w] << (63 - s&63); b != 0 {
		return int64(s) - int64(bits.LeadingZeros64(b))
	}
	if w == 0 {
		return -1
	}
	w--
	for sw := int64(w >> 6); sw >= 0; sw-- {
		m := in.fsum[sw]
		if uint32(sw) == w>>6 {
			m &= ^uint64(0) >> (63 - w&63)
		}
		if m != 0 {
			ww := uint32(sw)<<6 + uint32(63-bits.LeadingZeros64(m))
			return int64(ww)<<6 + int64(63-bits.LeadingZeros64(in.fbits[ww]))
		}
	}
	return -1
}

// compact renumbers the live nodes into slots 0..flen-1, keeping their order.
func (in *Instance) compact() {
	var d uint32
	for w, b := range in.fbits {
		for b != 0 {
			s := uint32(w)<<6 + uint32(bits.TrailingZeros64(b))
			b &= b - 1
			f := in.fslot[s]
			in.fslot[d] = f
			in.seq[f] = d
			d++
		}
	}
	clear(in.fbits)
	clear(in.fsum)
	full := d >> 6
	for w := uint32(0); w < full; w++ {
		in.fbits[w] = ^uint64(0)
	}
	if d&63 != 0 {
		in.fbits[full] = 1<<(d&63) - 1
	}
	for w, b := range in.fbits {
		if b != 0 {
			in.fsum[w>>6] |= 1 << (w & 63)
		}
	}
	// Linear-time Fenwick build.
	n := uint32(len(in.fen) - 1)
	for i := uint32(1); i <= n; i++ {
		in.fen[i] = int32(bits.OnesCount64(in.fbits[i-1]))
	}
	for i := uint32(1); i <= n; i++ {
		if j := i + i&-i; j <= n {
			in.fen[j] += in.fen[i]
		}
	}
	in.fnext = d
	in.fmin = 0
	in.epoch++
	in.Stats.Compactions++
}

// MarkDirty records a modification of f at lsn. On the first modification since f was
// clean it sets oldest_modification and inserts f at the flush-list head
// (buf_flush_insert_into_flush_list) and returns true; later modifications change nothing.
func (in *Instance) MarkDirty(f FrameID, lsn uint64) bool {
	fl := in.hot[f].flags
	if fl&flDirty != 0 {
		return false
	}
	if fl&flInLRU == 0 {
		panic("bufpool: MarkDirty of a free frame")
	}
	if in.fnext == uint32(len(in.fslot)) {
		in.compact()
	}
	s := in.fnext
	in.fnext++
	in.seq[f] = s
	in.fslot[s] = f
	in.setSlot(s)
	in.hot[f].flags = fl | flDirty
	in.oldestMod[f] = lsn
	in.flen++
	in.spaceDirty(f)
	if o := in.hot[f].observer; o != 0 {
		in.obs[o].dirty++
	}
	return true
}

// MarkClean removes f from the flush list (buf_flush_remove) and clears its observer, as
// buf_flush_remove does. A flush hazard pointer on f moves to the next newer node.
func (in *Instance) MarkClean(f FrameID) {
	if in.hot[f].flags&flDirty == 0 {
		return
	}
	if in.flushHP == f {
		in.flushHP = in.FlushNewer(f)
	}
	in.clearSlot(in.seq[f])
	in.hot[f].flags &^= flDirty
	in.oldestMod[f] = 0
	in.flen--
	in.spaceClean(f)
	if o := in.hot[f].observer; o != 0 {
		in.obs[o].dirty--
		in.hot[f].observer = 0
	}
}

// FlushOldest is the flush-list tail (UT_LIST_GET_LAST(flush_list)), or Nil.
func (in *Instance) FlushOldest() FrameID {
	if in.flen == 0 {
		return Nil
	}
	s := in.nextSlot(in.fmin << 6)
	in.fmin = uint32(s >> 6)
	return in.fslot[s]
}

// FlushNewest is the flush-list head, or Nil.
func (in *Instance) FlushNewest() FrameID {
	if in.flen == 0 {
		return Nil
	}
	return in.fslot[in.prevSlot(in.fnext)]
}

// FlushNewer is the neighbour of dirty frame f towards the head (UT_LIST_GET_PREV), or Nil.
func (in *Instance) FlushNewer(f FrameID) FrameID {
	s := in.nextSlot(in.seq[f] + 1)
	if s < 0 {
		return Nil
	}
	return in.fslot[s]
}

// FlushOlder is the neighbour of dirty frame f towards the tail (UT_LIST_GET_NEXT), or Nil.
func (in *Instance) FlushOlder(f FrameID) FrameID {
	s := in.prevSlot(in.seq[f])
	if s < 0 {
		return Nil
	}
	return in.fslot[s]
}

// FlushRank is the number of flush-list nodes older than dirty frame f: a walk from the
// tail passes that many nodes before reaching f (and visits rank+1 counting f). O(log n).
func (in *Instance) FlushRank(f FrameID) int {
	if in.hot[f].flags&flDirty == 0 {
		panic("bufpool: FlushRank of a clean frame")
	}
	s := in.seq[f]
	w := s >> 6
	return in.fenPrefix(w) + bits.OnesCount64(in.fbits[w]&(1<<(s&63)-1))
}

// SetFlushHP saves a flush-list walker's position (FlushHp::set); MarkClean of that frame
// moves it to the next newer node (FlushHp::adjust).
func (in *Instance) SetFlushHP(f FrameID) { in.flushHP = f }

// FlushHP returns the saved flush-list position.
func (in *Instance) FlushHP() FrameID { return in.flushHP }

// FlushFromTail iterates the flush list from the oldest node. The loop body may MarkClean
// or Remove the yielded frame; MarkDirty inside the loop is allowed too (new nodes join at
// the head and are visited), including across a compaction.
func (in *Instance) FlushFromTail() func(yield func(FrameID) bool) {
	return func(yield func(FrameID) bool) {
		if in.flen == 0 {
			return
		}
		s := in.nextSlot(in.fmin << 6)
		for s >= 0 {
			f := in.fslot[s]
			ep := in.epoch
			// Position by rank, which survives a compaction: nodes older than f that
			// the body does not touch keep their count.
			r := in.FlushRank(f)
			if !yield(f) {
				return
			}
			if in.epoch == ep {
				s = in.nextSlot(uint32(s) + 1)
				continue
			}
			if in.hot[f].flags&flDirty != 0 {
				s = in.nextSlot(in.seq[f] + 1)
			} else {
				// f was cleaned and the slots renumbered: the r nodes older than f now
				// occupy slots 0..r-1.
				s = in.nextSlot(uint32(r))
			}
		}
	}
}
