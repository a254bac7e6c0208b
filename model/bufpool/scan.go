package bufpool

// Scan accounting. The DDL routines of buf0lru.cc walk whole lists under a mutex; the
// simulator must charge what those walks cost (nodes visited) and act on what they find,
// without walking millions of nodes per DDL itself. Each function here has a literal-walk
// twin in oracle.go, and the tests assert they agree on a static pool.

// RemovalScan answers buf_LRU_remove_all_pages for space: the walk visits every LRU node
// (visited = LRULen) and finds the space's pages. The pages are appended to dst in
// space-list order (dirty newest first, then clean), not in LRU order: as a set they equal
// WalkRemoval's. O(pages of the space).
//
// The real walk sleeps and restarts when it meets an io- or buffer-fixed page of the space;
// use Blocked to see whether that happens and LRUPosition (a literal walk) for where.
func (in *Instance) RemovalScan(space uint32, dst []FrameID) (visited int, found []FrameID) {
	found = dst
	for f := range in.SpaceFrames(space) {
		found = append(found, f)
	}
	return int(in.lruLen), found
}

// Blocked reports whether frame f would stop buf_LRU_remove_all_pages: buffer-fixed or
// io-fixed (buf_page_get_io_fix != BUF_IO_NONE || buf_fix_count > 0).
func (in *Instance) Blocked(f FrameID) bool {
	return in.hot[f].fix != 0 || in.hot[f].flags&flIOMask != 0
}

// FlushFirstOfSpace answers the flush-list walk of BUF_REMOVE_FLUSH_* from the tail to the
// first dirty page of space: that frame (Nil if none) and the number of nodes passed
// before it (FlushLen when none: the walk runs off the head). O(log n).
func (in *Instance) FlushFirstOfSpace(space uint32) (FrameID, int) {
	f := in.SpaceOldestDirty(space)
	if f == Nil {
		return Nil, int(in.flen)
	}
	return f, in.FlushRank(f)
}

// FlushFirstOfObserver is FlushFirstOfSpace for the pages tagged with flush observer o
// (matching by observer, as buf_flush_or_remove_pages does when given one). For each space
// the observer has pages in, it walks that space's dirty pages oldest first until the first
// tagged one: O(untagged dirty pages of those spaces older than the observer's oldest page
// + log n).
func (in *Instance) FlushFirstOfObserver(o uint16) (FrameID, int) {
	if o == 0 || int(o) >= len(in.obs) || in.obs[o].dirty == 0 {
		return Nil, int(in.flen)
	}
	best := Nil
	for _, sid := range in.obs[o].spaces {
		for f := in.SpaceOldestDirty(sid); f != Nil; f = in.SpaceNewerDirty(f) {
			if in.hot[f].observer == o {
				if best == Nil || in.seq[f] < in.seq[best] {
					best = f
				}
				break
			}
		}
	}
	return best, in.FlushRank(best)
}

// ahiEligible is the test of buf_LRU_drop_page_hash_for_tablespace: a page of the space,
// not io-fixed, not buffer-fixed, with AHI entries.
func (in *Instance) ahiEligible(f FrameID, space uint32) bool {
	return in.hot[f].flags&(flAHI|flIOMask) == flAHI && in.hot[f].fix == 0 &&
		in.hot[f].key.Space() == space
}

// AHIScan answers the AHI pass of buf_LRU_drop_page_hash_for_tablespace: walk the LRU
// from the tail collecting eligible pages of space; each time batch pages are collected
// the mutex is released to drop them. It returns, for each full batch, the number of LRU
// nodes visited when it filled (cumulative from the tail, counting the filling page),
// appended to dst; visited (the whole LRU) and the number of pages collected.
//
// When fewer than batch pages are eligible no batch fills and the answer needs no walk:
// O(pages of the space). Otherwise the boundaries depend on LRU positions, which no index
// keeps, so it falls back to the literal walk: O(LRULen). The answer assumes the LRU does
// not change between batches.
func (in *Instance) AHIScan(space uint32, batch int, dst []int) (bounds []int, visited, collected int) {
	for f := range in.SpaceFrames(space) {
		if in.ahiEligible(f, space) {
			collected++
		}
	}
	if collected < batch {
		return dst, int(in.lruLen), collected
	}
	bounds, visited, pages := in.WalkAHI(space, batch, dst)
	return bounds, visited, len(pages)
}

// LRUPosition is the number of LRU nodes between the tail and f (0 for the tail): a literal
// walk, O(position). For the rare events that need an exact position (a fixed page met by
// a removal walk).
func (in *Instance) LRUPosition(f FrameID) int {
	n := 0
	for g := in.lruNext[f]; g != Nil; g = in.lruNext[g] {
		n++
	}
	return n
}
