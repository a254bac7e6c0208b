package bufpool

// Literal walks: the list traversals of buf0lru.cc done node by node. They are the test
// oracle for scan.go and a fallback for callers that need exact positions. Each is O(list).

// WalkRemoval walks the LRU from the tail as buf_LRU_remove_all_pages does and returns the
// nodes visited and the pages of space in walk order (tail first).
func (in *Instance) WalkRemoval(space uint32, dst []FrameID) (visited int, found []FrameID) {
	found = dst
	for f := in.lruTail; f != Nil; f = in.lruPrev[f] {
		visited++
		if in.hot[f].key.Space() == space {
			found = append(found, f)
		}
	}
	return visited, found
}

// WalkFlushFirst walks the flush list from the tail to the first frame satisfying match;
// it returns that frame (Nil if none) and the nodes passed before it (all of them if none).
func (in *Instance) WalkFlushFirst(match func(FrameID) bool) (FrameID, int) {
	passed := 0
	for f := in.FlushOldest(); f != Nil; f = in.FlushNewer(f) {
		if match(f) {
			return f, passed
		}
		passed++
	}
	return Nil, passed
}

// WalkAHI walks the LRU from the tail as buf_LRU_drop_page_hash_for_tablespace does,
// collecting eligible pages of space in batches of batch. It returns the cumulative nodes
// visited at each batch fill (appended to dst), the nodes visited in all, and the pages
// collected in walk order.
func (in *Instance) WalkAHI(space uint32, batch int, dst []int) (bounds []int, visited int, pages []FrameID) {
	bounds = dst
	inBatch := 0
	for f := in.lruTail; f != Nil; f = in.lruPrev[f] {
		visited++
		if !in.ahiEligible(f, space) {
			continue
		}
		pages = append(pages, f)
		inBatch++
		if inBatch == batch {
			bounds = append(bounds, visited)
			inBatch = 0
		}
	}
	return bounds, visited, pages
}
