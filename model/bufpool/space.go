package bufpool

// Per-space membership: every frame in the LRU is on an intrusive doubly linked list of its
// tablespace (spPrev/spNext), keyed through a small dense index. The list keeps the dirty
// members first, newest first: MarkDirty pushes at the head and always holds the newest
// flush sequence, MarkClean moves the frame to the tail. So the dirty prefix is sorted by
// flush-list position, and its last element (dirtyTail) is the space's oldest dirty page,
// the first one a flush-list walk from the tail meets.

type spaceRec struct {
	id        uint32
	head      FrameID
	tail      FrameID
	dirtyTail FrameID // oldest dirty member, Nil if none
	n         int32   // members (pages of the space in the LRU)
	dirty     int32
	ahi       int32 // members with AHI entries (the table's index->search_info->ref_count share)
}

type obsRec struct {
	dirty  int32
	spaces []uint32 // spaces the observer has tagged pages of (one, for FlushObserver)
}

func (in *Instance) spaceOf(f FrameID) *spaceRec {
	return &in.spaces[in.spaceIdx[in.hot[f].key.Space()]]
}

func (in *Instance) lookupSpace(space uint32) *spaceRec {
	i, ok := in.spaceIdx[space]
	if !ok {
		return nil
	}
	return &in.spaces[i]
}

func (in *Instance) spaceAdd(f FrameID) {
	id := in.hot[f].key.Space()
	i, ok := in.spaceIdx[id]
	if !ok {
		if k := len(in.freeSpace); k > 0 {
			i = in.freeSpace[k-1]
			in.freeSpace = in.freeSpace[:k-1]
		} else {
			i = int32(len(in.spaces))
			in.spaces = append(in.spaces, spaceRec{})
		}
		in.spaces[i] = spaceRec{id: id, head: Nil, tail: Nil, dirtyTail: Nil}
		in.spaceIdx[id] = i
	}
	sp := &in.spaces[i]
	in.spLinkTail(sp, f)
	sp.n++
}

func (in *Instance) spaceRemove(f FrameID) {
	id := in.hot[f].key.Space()
	i := in.spaceIdx[id]
	sp := &in.spaces[i]
	in.spUnlink(sp, f, in.hot[f].flags&flDirty != 0)
	sp.n--
	if sp.n == 0 {
		delete(in.spaceIdx, id)
		in.freeSpace = append(in.freeSpace, i)
	}
}

func (in *Instance) spLinkTail(sp *spaceRec, f FrameID) {
	in.spNext[f] = Nil
	in.spPrev[f] = sp.tail
	if sp.tail != Nil {
		in.spNext[sp.tail] = f
	} else {
		sp.head = f
	}
	sp.tail = f
}

func (in *Instance) spLinkHead(sp *spaceRec, f FrameID) {
	in.spPrev[f] = Nil
	in.spNext[f] = sp.head
	if sp.head != Nil {
		in.spPrev[sp.head] = f
	} else {
		sp.tail = f
	}
	sp.head = f
}

// spUnlink unlinks f; a dirty f also leaves the dirty prefix, whose oldest member becomes
// f's head-side (newer) neighbour when f was the oldest.
func (in *Instance) spUnlink(sp *spaceRec, f FrameID, dirty bool) {
	p, nx := in.spPrev[f], in.spNext[f]
	if dirty {
		if sp.dirtyTail == f {
			sp.dirtyTail = p
		}
		sp.dirty--
	}
	if p != Nil {
		in.spNext[p] = nx
	} else {
		sp.head = nx
	}
	if nx != Nil {
		in.spPrev[nx] = p
	} else {
		sp.tail = p
	}
}

// spaceDirty moves f (already flagged dirty) to the head of its space list.
func (in *Instance) spaceDirty(f FrameID) {
	sp := in.spaceOf(f)
	in.spUnlink(sp, f, false)
	in.spLinkHead(sp, f)
	if sp.dirty == 0 {
		sp.dirtyTail = f
	}
	sp.dirty++
}

// spaceClean moves f (flag already cleared) from the dirty prefix to the tail.
func (in *Instance) spaceClean(f FrameID) {
	sp := in.spaceOf(f)
	in.spUnlink(sp, f, true)
	in.spLinkTail(sp, f)
}

// SpacePages is the number of pages of space in this instance's LRU.
func (in *Instance) SpacePages(space uint32) int {
	if sp := in.lookupSpace(space); sp != nil {
		return int(sp.n)
	}
	return 0
}

// SpaceAHI is the number of pages of space in this instance with AHI entries.
func (in *Instance) SpaceAHI(space uint32) int {
	if sp := in.lookupSpace(space); sp != nil {
		return int(sp.ahi)
	}
	return 0
}

// SpaceDirty is the number of dirty pages of space in this instance.
func (in *Instance) SpaceDirty(space uint32) int {
	if sp := in.lookupSpace(space); sp != nil {
		return int(sp.dirty)
	}
	return 0
}

// SpaceFrames iterates the frames of space (dirty ones first, newest first; then clean).
// The loop body may Remove or MarkClean the yielded frame.
func (in *Instance) SpaceFrames(space uint32) func(yield func(FrameID) bool) {
	return func(yield func(FrameID) bool) {
		sp := in.lookupSpace(space)
		if sp == nil {
			return
		}
		for f := sp.head; f != Nil; {
			nx := in.spNext[f]
			if !yield(f) {
				return
			}
			f = nx
		}
	}
}

// SpaceFirst is the first frame of space's list (its newest dirty page, or a clean one when
// none is dirty), Nil when the space has no page here. With SpaceNext it walks the list one
// node at a time, for a walk that releases the LRU mutex on the way.
func (in *Instance) SpaceFirst(space uint32) FrameID {
	if sp := in.lookupSpace(space); sp != nil {
		return sp.head
	}
	return Nil
}

// SpaceNext is the frame after f in its space's list, or Nil.
func (in *Instance) SpaceNext(f FrameID) FrameID { return in.spNext[f] }

// SpaceOldestDirty is the dirty page of space that is oldest on the flush list, or Nil.
// O(1).
func (in *Instance) SpaceOldestDirty(space uint32) FrameID {
	if sp := in.lookupSpace(space); sp != nil {
		return sp.dirtyTail
	}
	return Nil
}

// SpaceNewerDirty is the next dirty page of f's space that is newer on the flush list than
// dirty frame f, or Nil. With SpaceOldestDirty it walks a space's dirty pages in flush-list
// order in O(1) per step.
func (in *Instance) SpaceNewerDirty(f FrameID) FrameID {
	p := in.spPrev[f]
	if p == Nil || in.hot[p].flags&flDirty == 0 {
		return Nil
	}
	return p
}

// SetObserver tags f with flush observer o (0 clears). Observer ids are small dense
// integers chosen by the caller.
func (in *Instance) SetObserver(f FrameID, o uint16) {
	old := in.hot[f].observer
	if old == o {
		return
	}
	dirty := in.hot[f].flags&flDirty != 0
	if old != 0 && dirty {
		in.obs[old].dirty--
	}
	in.hot[f].observer = o
	if o == 0 {
		return
	}
	for int(o) >= len(in.obs) {
		in.obs = append(in.obs, obsRec{})
	}
	r := &in.obs[o]
	if dirty {
		r.dirty++
	}
	sid := in.hot[f].key.Space()
	for _, s := range r.spaces {
		if s == sid {
			return
		}
	}
	r.spaces = append(r.spaces, sid)
}

// ObserverDirty is the number of dirty pages tagged with observer o.
func (in *Instance) ObserverDirty(o uint16) int {
	if int(o) >= len(in.obs) || o == 0 {
		return 0
	}
	return int(in.obs[o].dirty)
}
