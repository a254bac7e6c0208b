package bufpool

import "slices"

// naive is the reference model: every list a Go slice, every rule re-derived from the
// InnoDB functions on slice indexes rather than links. It is slow on purpose.
type naive struct {
	n          int
	oldRatio   int
	oldTimeMs  uint32
	currSize   int
	free       []FrameID // head first
	lru        []FrameID // head (young) first
	lruOld     FrameID
	oldLen     int
	old        []bool
	stamp      []uint32
	access     []uint32
	key        []PageID
	inLRU      []bool
	dirty      []bool
	lsn        []uint64
	fix        []int
	io         []IOFix
	ahi        []bool
	obs        []uint16
	flush      []FrameID // tail (oldest) first
	hash       map[PageID]FrameID
	freedClock uint64
	scanItr    FrameID
}

func newNaive(frames, oldPct int) *naive {
	m := &naive{n: frames, oldTimeMs: DefaultOldTimeMs, currSize: frames, lruOld: Nil, scanItr: Nil,
		hash: map[PageID]FrameID{}}
	r := oldPct * OldRatioDiv / 100
	m.oldRatio = min(max(r, OldRatioMin), OldRatioMax)
	for i := 0; i < frames; i++ {
		m.free = append(m.free, FrameID(i))
	}
	m.old = make([]bool, frames)
	m.stamp = make([]uint32, frames)
	m.access = make([]uint32, frames)
	m.key = make([]PageID, frames)
	m.inLRU = make([]bool, frames)
	m.dirty = make([]bool, frames)
	m.lsn = make([]uint64, frames)
	m.fix = make([]int, frames)
	m.io = make([]IOFix, frames)
	m.ahi = make([]bool, frames)
	m.obs = make([]uint16, frames)
	return m
}

func (m *naive) idx(f FrameID) int {
	i := slices.Index(m.lru, f)
	if i < 0 {
		panic("naive: frame not in LRU")
	}
	return i
}

func (m *naive) adjust() {
	L := len(m.lru)
	want := min(L*m.oldRatio/OldRatioDiv, L-(OldTolerance+NonOldMinLen))
	for {
		i := m.idx(m.lruOld)
		if m.oldLen+OldTolerance < want {
			m.lruOld = m.lru[i-1]
			m.old[m.lruOld] = true
			m.oldLen++
		} else if m.oldLen > want+OldTolerance {
			m.old[m.lruOld] = false
			m.lruOld = m.lru[i+1]
			m.oldLen--
		} else {
			return
		}
	}
}

func (m *naive) addLow(f FrameID, old bool) {
	if !old || len(m.lru) < OldMinLen {
		m.lru = slices.Insert(m.lru, 0, f)
		m.stamp[f] = uint32(m.freedClock & 0x7FFFFFFF)
		m.old[f] = false
	} else {
		m.lru = slices.Insert(m.lru, m.idx(m.lruOld)+1, f)
		m.oldLen++
	}
	switch L := len(m.lru); {
	case L > OldMinLen:
		m.old[f] = old
		m.adjust()
	case L == OldMinLen:
		for _, g := range m.lru {
			m.old[g] = true
		}
		m.lruOld = m.lru[0]
		m.oldLen = L
		m.adjust()
	default:
		m.old[f] = m.lruOld != Nil
	}
}

func (m *naive) removeLRU(f FrameID) {
	i := m.idx(f)
	prev := Nil
	if i > 0 {
		prev = m.lru[i-1]
	}
	if m.scanItr == f {
		m.scanItr = prev
	}
	if f == m.lruOld {
		m.lruOld = prev
		m.old[prev] = true
		m.oldLen++
	}
	m.lru = slices.Delete(m.lru, i, i+1)
	if len(m.lru) < OldMinLen {
		for _, g := range m.lru {
			m.old[g] = false
		}
		m.lruOld = Nil
		m.oldLen = 0
		return
	}
	if m.old[f] {
		m.oldLen--
	}
	m.adjust()
}

func (m *naive) takeFree() FrameID {
	if len(m.free) == 0 {
		return Nil
	}
	f := m.free[0]
	m.free = m.free[1:]
	return f
}

func (m *naive) add(f FrameID, p PageID, old bool) {
	m.key[f] = p
	m.access[f] = 0
	m.stamp[f] = 0
	m.old[f] = false
	m.inLRU[f] = true
	m.fix[f], m.io[f], m.ahi[f], m.obs[f] = 0, IONone, false, 0
	m.hash[p] = f
	m.addLow(f, old)
}

func (m *naive) clean(f FrameID) {
	if !m.dirty[f] {
		return
	}
	m.dirty[f] = false
	m.lsn[f] = 0
	m.obs[f] = 0
	m.flush = slices.Delete(m.flush, slices.Index(m.flush, f), slices.Index(m.flush, f)+1)
}

func (m *naive) markDirty(f FrameID, lsn uint64) bool {
	if m.dirty[f] {
		return false
	}
	m.dirty[f] = true
	m.lsn[f] = lsn
	m.flush = append(m.flush, f)
	return true
}

func (m *naive) remove(f FrameID, tick bool) {
	m.clean(f)
	delete(m.hash, m.key[f])
	m.removeLRU(f)
	if tick {
		m.freedClock++
	}
	m.inLRU[f] = false
	m.free = slices.Insert(m.free, 0, f)
}

func (m *naive) touch(f FrameID, now uint32) bool {
	if m.access[f] == 0 {
		m.access[f] = now + 1
	}
	if m.freedClock == 0 {
		return false
	}
	if m.old[f] && m.oldTimeMs != 0 {
		return now-(m.access[f]-1) >= m.oldTimeMs
	}
	thr := uint64(m.currSize) * uint64(OldRatioDiv-m.oldRatio) / (OldRatioDiv * 4)
	return !(m.freedClock&0x7FFFFFFF < uint64(m.stamp[f])+thr)
}

func (m *naive) makeYoung(f FrameID) {
	m.removeLRU(f)
	m.addLow(f, false)
}

func (m *naive) ready(f FrameID) bool {
	return !m.dirty[f] && m.fix[f] == 0 && m.io[f] == IONone
}

func (m *naive) evictCandidate(maxScan int) (FrameID, int) {
	start := m.scanItr
	if start == Nil || m.old[start] {
		if len(m.lru) == 0 {
			return Nil, 0
		}
		start = m.lru[len(m.lru)-1]
	}
	scanned := 0
	for i := m.idx(start); i >= 0 && (maxScan <= 0 || scanned < maxScan); i-- {
		f := m.lru[i]
		if i > 0 {
			m.scanItr = m.lru[i-1]
		} else {
			m.scanItr = Nil
		}
		scanned++
		if m.ready(f) {
			return f, scanned
		}
	}
	return Nil, scanned
}
