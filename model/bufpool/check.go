package bufpool

import (
	"errors"
	"fmt"
	"math/bits"
	"slices"
)

// Check verifies every invariant of the instance and returns all violations found (capped
// at 20). It is O(frames) and allocates; for tests and debugging.
func (in *Instance) Check() error {
	var errs []error
	bad := func(format string, a ...any) {
		if len(errs) < 20 {
			errs = append(errs, fmt.Errorf(format, a...))
		}
	}
	n := in.n
	const (
		onFree = 1
		onLRU  = 2
	)
	where := make([]uint8, n)

	// Free list.
	cnt := int32(0)
	for f := in.freeHead; f != Nil; f = in.lruNext[f] {
		if where[f] != 0 {
			bad("free list: frame %d twice (cycle)", f)
			break
		}
		where[f] = onFree
		cnt++
		if in.hot[f].flags&flInLRU != 0 {
			bad("free list: frame %d flagged in LRU", f)
		}
	}
	if cnt != in.freeLen {
		bad("free list: walked %d, freeLen %d", cnt, in.freeLen)
	}

	// LRU links, old sublist.
	cnt = 0
	prev := Nil
	oldSeen, oldCnt := false, int32(0)
	for f := in.lruHead; f != Nil; f = in.lruNext[f] {
		if where[f] != 0 {
			bad("LRU: frame %d already on a list", f)
			break
		}
		where[f] = onLRU
		cnt++
		if in.lruPrev[f] != prev {
			bad("LRU: frame %d prev %d, want %d", f, in.lruPrev[f], prev)
		}
		if in.hot[f].flags&flInLRU == 0 {
			bad("LRU: frame %d not flagged in LRU", f)
		}
		old := in.hot[f].clock&oldBit != 0
		if f == in.lruOld {
			oldSeen = true
		}
		if old != oldSeen {
			bad("LRU: frame %d old=%v but LRU_old seen=%v", f, old, oldSeen)
		}
		if old {
			oldCnt++
		}
		prev = f
	}
	if prev != in.lruTail {
		bad("LRU: tail %d, walk ended at %d", in.lruTail, prev)
	}
	if cnt != in.lruLen {
		bad("LRU: walked %d, lruLen %d", cnt, in.lruLen)
	}
	if cnt+in.freeLen+in.taken != n {
		bad("frames: LRU %d + free %d + taken %d != %d", cnt, in.freeLen, in.taken, n)
	}
	if in.lruLen >= OldMinLen {
		if in.lruOld == Nil {
			bad("LRU: length %d but LRU_old unset", in.lruLen)
		}
		want := min(int64(in.lruLen)*int64(in.oldRatio)/OldRatioDiv,
			int64(in.lruLen)-(OldTolerance+NonOldMinLen))
		if d := int64(in.oldLen) - want; d > OldTolerance || d < -OldTolerance {
			bad("LRU: old len %d, target %d", in.oldLen, want)
		}
	} else if in.lruOld != Nil || in.oldLen != 0 {
		bad("LRU: length %d < %d but LRU_old=%d len %d", in.lruLen, OldMinLen, in.lruOld, in.oldLen)
	}
	if oldCnt != in.oldLen {
		bad("LRU: %d old frames, oldLen %d", oldCnt, in.oldLen)
	}

	// Page hash.
	used := 0
	for i, s := range in.slots {
		if s == 0 {
			continue
		}
		used++
		f := FrameID(s&in.frameMask) - 1
		if f < 0 || f >= FrameID(n) || where[f] != onLRU {
			bad("hash: slot %d holds frame %d not in LRU", i, f)
			continue
		}
		h, tag := in.home(in.hot[f].key)
		if tag != s&in.tagMask {
			bad("hash: slot %d tag mismatch for frame %d", i, f)
		}
		d := uint32(i) - h
		if uint32(i) < h {
			d += in.hcap
		}
		if want := min(d, in.distSat); in.slotDist(s) != want {
			bad("hash: slot %d holds probe distance %d for frame %d, real distance %d (stored %d)",
				i, in.slotDist(s), f, d, want)
		}
		for k := h; k != uint32(i); {
			if in.slots[k] == 0 {
				bad("hash: empty slot %d between frame %d's home %d and its slot %d", k, f, h, i)
				break
			}
			if k++; k == in.hcap {
				k = 0
			}
		}
	}
	if used != int(in.lruLen) {
		bad("hash: %d entries, LRU %d", used, in.lruLen)
	}
	for f := in.lruHead; f != Nil; f = in.lruNext[f] {
		if g := in.Lookup(in.hot[f].key); g != f {
			bad("hash: lookup %v gives %d, want %d", in.hot[f].key, g, f)
		}
	}

	// Flush list: order, oldest_modification, bitmaps, Fenwick.
	dirty := int32(0)
	for f := FrameID(0); f < FrameID(n); f++ {
		d := in.hot[f].flags&flDirty != 0
		if d {
			dirty++
			if where[f] != onLRU {
				bad("flush: dirty frame %d not in LRU", f)
			}
			if s := in.seq[f]; s >= in.fnext || in.fbits[s>>6]&(1<<(s&63)) == 0 || in.fslot[s] != f {
				bad("flush: frame %d seq %d not mapped back", f, s)
			}
		} else if in.oldestMod[f] != 0 {
			bad("flush: clean frame %d has oldest_modification %d", f, in.oldestMod[f])
		}
	}
	if dirty != in.flen {
		bad("flush: %d dirty frames, flen %d", dirty, in.flen)
	}
	total := 0
	lastLSN := uint64(0)
	for w, b := range in.fbits {
		if got := in.fenPrefix(uint32(w)); got != total {
			bad("flush: Fenwick prefix(%d)=%d, want %d", w, got, total)
		}
		if (in.fsum[w>>6]>>(w&63))&1 != 0 != (b != 0) {
			bad("flush: summary bit for word %d wrong", w)
		}
		if b != 0 && uint32(w) < in.fmin {
			bad("flush: word %d occupied below fmin %d", w, in.fmin)
		}
		for b != 0 {
			s := uint32(w)<<6 + uint32(bits.TrailingZeros64(b))
			b &= b - 1
			f := in.fslot[s]
			if s >= in.fnext {
				bad("flush: slot %d occupied past fnext %d", s, in.fnext)
			}
			if f < 0 || f >= FrameID(n) || in.hot[f].flags&flDirty == 0 || in.seq[f] != s {
				bad("flush: slot %d maps to frame %d not dirty there", s, f)
				continue
			}
			if in.oldestMod[f] < lastLSN {
				bad("flush: oldest_modification %d after %d (tail to head)", in.oldestMod[f], lastLSN)
			}
			lastLSN = in.oldestMod[f]
			if r := in.FlushRank(f); r != total {
				bad("flush: rank of %d is %d, want %d", f, r, total)
			}
			total++
		}
	}
	if total != int(in.flen) {
		bad("flush: %d occupied slots, flen %d", total, in.flen)
	}

	// Spaces.
	type agg struct{ n, dirty, ahi int32 }
	want := map[uint32]agg{}
	obsDirty := make([]int32, len(in.obs))
	for f := in.lruHead; f != Nil; f = in.lruNext[f] {
		a := want[in.hot[f].key.Space()]
		a.n++
		if in.hot[f].flags&flAHI != 0 {
			a.ahi++
		}
		if in.hot[f].flags&flDirty != 0 {
			a.dirty++
			if o := in.hot[f].observer; o != 0 {
				if int(o) >= len(obsDirty) {
					bad("observer %d of frame %d unregistered", o, f)
				} else {
					obsDirty[o]++
				}
			}
		}
		want[in.hot[f].key.Space()] = a
	}
	if len(want) != len(in.spaceIdx) {
		bad("spaces: %d with pages, %d indexed", len(want), len(in.spaceIdx))
	}
	ids := make([]uint32, 0, len(want))
	for id := range want {
		ids = append(ids, id)
	}
	slices.Sort(ids)
	for _, id := range ids {
		a := want[id]
		sp := in.lookupSpace(id)
		if sp == nil {
			bad("space %d: pages in LRU but no record", id)
			continue
		}
		if sp.id != id || sp.n != a.n || sp.dirty != a.dirty || sp.ahi != a.ahi {
			bad("space %d: record (id %d, n %d, dirty %d, ahi %d), counted (%d, %d, %d)", id, sp.id, sp.n, sp.dirty, sp.ahi, a.n, a.dirty, a.ahi)
		}
		var m, d int32
		p := Nil
		inDirty := true
		lastDirty := Nil
		for f := sp.head; f != Nil; f = in.spNext[f] {
			m++
			if in.spPrev[f] != p {
				bad("space %d: frame %d prev %d want %d", id, f, in.spPrev[f], p)
			}
			if in.hot[f].key.Space() != id || where[f] != onLRU {
				bad("space %d: member %d is %v (list %d)", id, f, in.hot[f].key, where[f])
			}
			if in.hot[f].flags&flDirty != 0 {
				if !inDirty {
					bad("space %d: dirty frame %d after a clean one", id, f)
				}
				if lastDirty != Nil && in.seq[f] >= in.seq[lastDirty] {
					bad("space %d: dirty prefix not newest-first at %d", id, f)
				}
				lastDirty = f
				d++
			} else {
				inDirty = false
			}
			p = f
			if m > a.n+1 {
				bad("space %d: list longer than %d", id, a.n)
				break
			}
		}
		if p != sp.tail || m != a.n || d != a.dirty || sp.dirtyTail != lastDirty {
			bad("space %d: list tail %d/%d, len %d/%d, dirty %d/%d, dirtyTail %d/%d",
				id, p, sp.tail, m, a.n, d, a.dirty, lastDirty, sp.dirtyTail)
		}
	}
	for o := 1; o < len(in.obs); o++ {
		if in.obs[o].dirty != obsDirty[o] {
			bad("observer %d: %d dirty recorded, %d counted", o, in.obs[o].dirty, obsDirty[o])
		}
	}
	return errors.Join(errs...)
}
