package bufpool

import "math/bits"

// Walker support for the flush-list routines of buf0lru.cc that release their mutexes in the
// middle of a walk (buf_flush_or_remove_pages and its later rewrite): select by rank, and
// positions that outlive the removal of their node.

// FlushAt is the inverse of FlushRank: the dirty frame with rank r (r nodes older than it),
// or Nil when r is outside [0, FlushLen). O(log n): a Fenwick descent to the 64-slot word,
// then a select inside it.
func (in *Instance) FlushAt(r int) FrameID {
	if r < 0 || r >= int(in.flen) {
		return Nil
	}
	n := len(in.fen) - 1
	w, rem := 0, int32(r)
	for step := 1 << (bits.Len(uint(n)) - 1); step > 0; step >>= 1 {
		if w+step <= n && in.fen[w+step] <= rem {
			w += step
			rem -= in.fen[w]
		}
	}
	// Words [0, w) hold r-rem nodes; the wanted one is the rem-th set bit of word w.
	b := in.fbits[w]
	for ; rem > 0; rem-- {
		b &= b - 1
	}
	return in.fslot[w<<6+bits.TrailingZeros64(b)]
}

// FlushPos names one insertion into the flush list: the slot a MarkDirty took, under the
// current slot numbering. Slots are not reused until a compaction renumbers the live nodes,
// so a position stays meaningful after its frame is cleaned: it is where the removed node
// was, and the node its stale list link leads to is FlushNewerThan(pos).
type FlushPos uint64

// FlushPosOf is the position of f's latest insertion. f must be dirty, or have been dirty
// under the current numbering (then it is where f was when it was removed). A frame that is
// cleaned and dirtied again gets a new position (at the head).
func (in *Instance) FlushPosOf(f FrameID) FlushPos {
	return FlushPos(uint64(in.epoch)<<32 | uint64(in.seq[f]))
}

// FlushEnd is the position the next MarkDirty will take. It changes with every insertion
// (and compaction), so an unchanged FlushEnd means nothing joined the list meanwhile.
func (in *Instance) FlushEnd() FlushPos {
	return FlushPos(uint64(in.epoch)<<32 | uint64(in.fnext))
}

// FlushNewerThan is the oldest node now on the flush list that was inserted after position
// p, or Nil. ok is false when a compaction renumbered the slots since p was taken (p then
// names nothing).
func (in *Instance) FlushNewerThan(p FlushPos) (f FrameID, ok bool) {
	if uint32(p>>32) != in.epoch {
		return Nil, false
	}
	s := in.nextSlot(uint32(p) + 1)
	if s < 0 {
		return Nil, true
	}
	return in.fslot[s], true
}
