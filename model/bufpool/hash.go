package bufpool

import "math/bits"

// The page hash is open addressing with linear probing and backward-shift deletion (no
// tombstones, so probe lengths do not decay under the constant evict/insert churn).
//
// A slot is a uint32: 0 = empty, else tag | (frame+1), where the low frameBits bits hold
// frame+1 and the remaining high bits are a fingerprint of the key's hash. The fingerprint
// lets a probe skip non-matching slots without loading the frame's key (a cache miss per
// probe otherwise). Capacity is 1.5 x frames (load <= 2/3), mapped by multiply-shift rather
// than a power-of-two mask, so the table costs exactly 6 bytes per frame and the whole
// instance stays inside the 64-byte budget.

func (in *Instance) initHash() {
	c := uint32(in.n) + uint32(in.n)/2 + 8
	in.hcap = c
	in.slots = make([]uint32, c)
	fb := uint(bits.Len32(uint32(in.n)))
	in.frameMask = uint32(1)<<fb - 1
}

// home returns the home slot and the fingerprint tag of key k.
func (in *Instance) home(k PageID) (uint32, uint32) {
	h := fmix64(uint64(k))
	idx := uint32((h >> 32) * uint64(in.hcap) >> 32)
	return idx, uint32(h) &^ in.frameMask
}

// Lookup returns the frame holding page p, or Nil (buf_page_hash_get_low).
func (in *Instance) Lookup(p PageID) FrameID {
	i, tag := in.home(p)
	mask := in.frameMask
	slots := in.slots
	for {
		s := slots[i]
		if s == 0 {
			return Nil
		}
		if s&^mask == tag {
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
	for {
		s := in.slots[i]
		if s == 0 {
			in.slots[i] = v
			return
		}
		if s&^in.frameMask == tag && in.hot[FrameID(s&in.frameMask)-1].key == k {
			panic("bufpool: page " + k.String() + " already in the page hash")
		}
		i++
		if i == in.hcap {
			i = 0
		}
	}
}

func (in *Instance) hashDelete(f FrameID) {
	i, _ := in.home(in.hot[f].key)
	want := uint32(f + 1)
	for in.slots[i]&in.frameMask != want {
		if in.slots[i] == 0 {
			panic("bufpool: frame missing from the page hash")
		}
		i++
		if i == in.hcap {
			i = 0
		}
	}
	// Backward shift: pull later members of the cluster into the hole when their home
	// does not lie cyclically in (hole, j].
	j := i
	for {
		j++
		if j == in.hcap {
			j = 0
		}
		s := in.slots[j]
		if s == 0 {
			in.slots[i] = 0
			return
		}
		h, _ := in.home(in.hot[FrameID(s&in.frameMask)-1].key)
		var stays bool
		if i <= j {
			stays = i < h && h <= j
		} else {
			stays = i < h || h <= j
		}
		if !stays {
			in.slots[i] = s
			i = j
		}
	}
}
