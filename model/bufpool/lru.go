package bufpool

// LRU maintenance, ported from buf0lru.cc. The list runs head (young) to tail (old);
// lruPrev points towards the head like UT_LIST_GET_PREV.

func (in *Instance) setOld(f FrameID, old bool) {
	if old {
		in.hot[f].clock |= oldBit
	} else {
		in.hot[f].clock &^= oldBit
	}
}

// adjustOldLen is buf_LRU_old_adjust_len: move LRU_old one step at a time until the old
// sublist is within OldTolerance of its target length.
func (in *Instance) adjustOldLen() {
	newLen := min(int64(in.lruLen)*int64(in.oldRatio)/OldRatioDiv,
		int64(in.lruLen)-(OldTolerance+NonOldMinLen))
	oldLen := int64(in.oldLen)
	for {
		o := in.lruOld
		if oldLen+OldTolerance < newLen {
			o = in.lruPrev[o]
			in.lruOld = o
			oldLen++
			in.setOld(o, true)
		} else if oldLen > newLen+OldTolerance {
			in.lruOld = in.lruNext[o]
			oldLen--
			in.setOld(o, false)
		} else {
			in.oldLen = int32(oldLen)
			return
		}
	}
}

// oldInit is buf_LRU_old_init: when the LRU first reaches OldMinLen, mark everything old
// and let adjustOldLen move the pointer into place.
func (in *Instance) oldInit() {
	for f := in.lruTail; f != Nil; f = in.lruPrev[f] {
		in.setOld(f, true)
	}
	in.lruOld = in.lruHead
	in.oldLen = in.lruLen
	in.adjustOldLen()
}

// lruAddLow is buf_LRU_add_block_low.
func (in *Instance) lruAddLow(f FrameID, old bool) {
	if !old || in.lruLen < OldMinLen {
		// UT_LIST_ADD_FIRST; the stamp feeds buf_page_peek_if_young.
		in.lruPrev[f] = Nil
		in.lruNext[f] = in.lruHead
		if in.lruHead != Nil {
			in.lruPrev[in.lruHead] = f
		} else {
			in.lruTail = f
		}
		in.lruHead = f
		in.hot[f].clock = uint32(in.freedClock & 0x7FFFFFFF)
	} else {
		// UT_LIST_INSERT_AFTER(LRU_old): the new page becomes the second old page.
		o := in.lruOld
		nx := in.lruNext[o]
		in.lruPrev[f] = o
		in.lruNext[f] = nx
		in.lruNext[o] = f
		if nx != Nil {
			in.lruPrev[nx] = f
		} else {
			in.lruTail = f
		}
		in.oldLen++
	}
	in.lruLen++
	switch {
	case in.lruLen > OldMinLen:
		in.setOld(f, old)
		in.adjustOldLen()
	case in.lruLen == OldMinLen:
		in.oldInit()
	default:
		in.setOld(f, in.lruOld != Nil)
	}
}

// lruRemove is buf_LRU_remove_block (with buf_LRU_adjust_hp first).
func (in *Instance) lruRemove(f FrameID) {
	prev, next := in.lruPrev[f], in.lruNext[f]
	if in.lruHP == f {
		in.lruHP = prev
	}
	if in.scanItr == f {
		in.scanItr = prev
	}
	if f == in.lruOld {
		// LRU_old moves one step towards the head; prev exists because the old sublist is
		// kept at least NonOldMinLen+OldTolerance short of the whole list.
		in.lruOld = prev
		in.setOld(prev, true)
		in.oldLen++
	}
	if prev != Nil {
		in.lruNext[prev] = next
	} else {
		in.lruHead = next
	}
	if next != Nil {
		in.lruPrev[next] = prev
	} else {
		in.lruTail = prev
	}
	in.lruLen--
	if in.lruLen < OldMinLen {
		for g := in.lruHead; g != Nil; g = in.lruNext[g] {
			in.setOld(g, false)
		}
		in.lruOld = Nil
		in.oldLen = 0
		return
	}
	if in.hot[f].clock&oldBit != 0 {
		in.oldLen--
	}
	in.adjustOldLen()
}
