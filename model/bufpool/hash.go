package bufpool

import "math/bits"

// The page hash is open addressing with linear probing and backward-shift deletion (no
// tombstones, so probe lengths do not decay under the constant evict/insert churn).
//
// A slot is a uint32: 0 = empty, else tag | dist | (frame+1). The low frameBits bits hold
// frame+1; the next distBits bits hold the entry's probe distance (how far past its home
// slot it sits), saturated at distSat = 2^distBits-1; the remaining high bits are a fingerprint of the
// key's hash. The fingerprint lets a probe skip non-matching slots without loading the
// frame's key (a cache miss per probe otherwise); the distance lets backward-shift deletion
// decide whether a later member of the cluster may move into the hole without loading that
// member's key to recompute its home (only a saturated distance needs the key). Capacity is
// 4/3 x frames (load <= 3/4), mapped by multiply-shift rather than a power-of-two mask, so
// the table costs 5.3 bytes per frame and the whole instance stays inside the 64-byte
// budget (at 1.5 x frames it was 6 bytes, and the AHI's per-frame counter took the
// instance past 64). A hit probes ~2.5 slots on average at a full pool, nearly always in
// the home slot's cache line (16 slots).

// distBitsFor splits the 32-frameBits high bits of a slot between the probe distance and
// the fingerprint: up to 5 distance bits (at load 2/3 a deletion's backward-shift scan then
// meets a distance of 31 or more about once per 30 deletions, somewhat more often at 3/4;
// with 3 bits, a distance of 7 or more 0.6 times per deletion, each a key load), at most
// half the bits.
func distBitsFor(frameBits uint) uint {
	return min(max((32-frameBits+1)/2, 1), 5)
}

func (in *Instance) initHash() {
	c := uint32(in.n) + uint32(in.n)/3 + 8
	in.hcap = c
	in.slots = make([]uint32, c)
	fb := uint(bits.Len32(uint32(in.n))) // <= 28: frames < 1<<28 leaves >= 4 high bits
	in.frameMask = uint32(1)<<fb - 1
	in.distShift = uint8(fb)
	in.distSat = uint32(1)<<distBitsFor(fb) - 1
	in.tagMask = ^(in.frameMask | in.distSat<<fb)
}

// home returns the home slot and the fingerprint tag of key k.
func (in *Instance) home(k PageID) (uint32, uint32) {
	h := fmix64(uint64(k))
	idx := uint32((h >> 32) * uint64(in.hcap) >> 32)
	return idx, uint32(h) & in.tagMask
}

// slotDist is the stored (possibly saturated) probe distance of slot value s.
func (in *Instance) slotDist(s uint32) uint32 { return s >> in.distShift & in.distSat }

// Lookup returns the frame holding page p, or Nil (buf_page_hash_get_low).
func (in *Instance) Lookup(p PageID) FrameID {
	i, tag := in.home(p)
	mask := in.frameMask
	tm := in.tagMask
	slots := in.slots
	for {
		s := slots[i]
		if s == 0 {
			return Nil
		}
		if s&tm == tag {
			f := FrameID(s&mask) - 1
			if in.hot[f].key == p {
				return f
			}
		}
		i++
		if i == in.hcap {
			i = 0
		}
	}
}

func (in *Instance) hashInsert(f FrameID) {
	k := in.hot[f].key
	i, tag := in.home(k)
	v := tag | uint32(f+1)
	d := uint32(0)
	for {
		s := in.slots[i]
		if s == 0 {
			in.slots[i] = v | min(d, in.distSat)<<in.distShift
			return
		}
		if s&in.tagMask == tag && in.hot[FrameID(s&in.frameMask)-1].key == k {
			panic("bufpool: page " + k.String() + " already in the page hash")
		}
		d++
		i++
		if i == in.hcap {
			i = 0
		}
	}
}

func (in *Instance) hashDelete(f FrameID) {
	i, _ := in.home(in.hot[f].key)
	want := uint32(f + 1)
	mask := in.frameMask
	slots := in.slots
	c := in.hcap
	for slots[i]&mask != want {
		if slots[i] == 0 {
			panic("bufpool: frame missing from the page hash")
		}
		i++
		if i == c {
			i = 0
		}
	}
	// Backward shift: pull later members of the cluster into the hole when their home does
	// not lie cyclically in (hole, j], i.e. when their probe distance is at least the gap
	// j - hole; the moved entry's distance shrinks by the gap.
	sh := in.distShift
	sat := in.distSat
	j := i
	gap := uint32(0)
	for {
		j++
		gap++
		if j == c {
			j = 0
		}
		s := slots[j]
		if s == 0 {
			slots[i] = 0
			return
		}
		d := s >> sh & sat
		if d == sat {
			h, _ := in.home(in.hot[FrameID(s&mask)-1].key)
			d = j - h
			if j < h {
				d += c
			}
		}
		if d >= gap {
			slots[i] = s&^(sat<<sh) | min(d-gap, sat)<<sh
			i = j
			gap = 0
		}
	}
}
