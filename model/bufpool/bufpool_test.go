package bufpool

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"
)

// pair drives the instance and the naive model with the same operations.
type pair struct {
	t   *testing.T
	in  *Instance
	m   *naive
	rng *rand.Rand
	now uint32
	lsn uint64
	hot int // size of the hot page set per space
}

func (p *pair) fatalf(format string, a ...any) {
	p.t.Helper()
	p.t.Fatalf(format, a...)
}

func (p *pair) randLRU() FrameID {
	if len(p.m.lru) == 0 {
		return Nil
	}
	return p.m.lru[p.rng.IntN(len(p.m.lru))]
}

func (p *pair) randDirty() FrameID {
	if len(p.m.flush) == 0 {
		return Nil
	}
	return p.m.flush[p.rng.IntN(len(p.m.flush))]
}

func (p *pair) access(pid PageID) {
	in, m := p.in, p.m
	f := in.Lookup(pid)
	mf, ok := m.hash[pid]
	if !ok {
		mf = Nil
	}
	if f != mf {
		p.fatalf("Lookup(%v) = %d, naive %d", pid, f, mf)
	}
	if f != Nil {
		a, b := in.Touch(f, p.now), m.touch(f, p.now)
		if a != b {
			p.fatalf("Touch(%d) = %v, naive %v", f, a, b)
		}
		if a {
			in.MakeYoung(f)
			m.makeYoung(f)
		}
		return
	}
	f, mf = in.TakeFree(), m.takeFree()
	if f != mf {
		p.fatalf("TakeFree = %d, naive %d", f, mf)
	}
	if f == Nil {
		maxScan := SearchScanDefault
		if p.rng.IntN(4) == 0 {
			maxScan = 0
		}
		c, sc := in.EvictCandidate(maxScan)
		mc, msc := m.evictCandidate(maxScan)
		if c != mc || sc != msc {
			p.fatalf("EvictCandidate = (%d,%d), naive (%d,%d)", c, sc, mc, msc)
		}
		if c == Nil {
			return
		}
		in.Remove(c, true)
		m.remove(c, true)
		f, _ = in.TakeFree(), m.takeFree()
	}
	old := p.rng.IntN(8) != 0
	in.AddToLRU(f, pid, old)
	m.add(f, pid, old)
}

func (p *pair) step() {
	in, m, r := p.in, p.m, p.rng
	p.now += uint32(r.IntN(3))
	switch op := r.IntN(1000); {
	case op < 550:
		// A skewed page mix: a hot set that gets re-touched (and so promoted) and a
		// uniform tail that keeps eviction going.
		var pid PageID
		if r.IntN(4) != 0 {
			pid = MakePageID(uint32(1+r.IntN(2)), uint32(r.IntN(p.hot)))
		} else {
			pid = MakePageID(uint32(1+r.IntN(6)), uint32(r.IntN(2*p.hot)))
		}
		p.access(pid)
	case op < 650:
		if f := p.randLRU(); f != Nil {
			p.lsn += uint64(1 + r.IntN(3))
			if a, b := in.MarkDirty(f, p.lsn), m.markDirty(f, p.lsn); a != b {
				p.fatalf("MarkDirty(%d) = %v, naive %v", f, a, b)
			}
		}
	case op < 730:
		var f FrameID
		if r.IntN(2) == 0 {
			f = in.FlushOldest()
			if mf := Nil; len(m.flush) > 0 {
				mf = m.flush[0]
				if f != mf {
					p.fatalf("FlushOldest = %d, naive %d", f, mf)
				}
			}
		} else {
			f = p.randDirty()
		}
		if f != Nil {
			in.MarkClean(f)
			m.clean(f)
		}
	case op < 745:
		if f := p.randLRU(); f != Nil && m.fix[f] == 0 && m.io[f] == IONone {
			tick := r.IntN(2) == 0
			in.Remove(f, tick)
			m.remove(f, tick)
		}
	case op < 785:
		if f := p.randLRU(); f != Nil {
			if m.fix[f] > 0 && r.IntN(2) == 0 {
				in.Unfix(f)
				m.fix[f]--
			} else if m.fix[f] < 3 {
				in.Fix(f)
				m.fix[f]++
			}
		}
	case op < 815:
		if f := p.randLRU(); f != Nil {
			s := IOFix(r.IntN(4))
			if r.IntN(2) == 0 {
				s = IONone
			}
			in.SetIOFix(f, s)
			m.io[f] = s
		}
	case op < 875:
		if f := p.randLRU(); f != Nil {
			on := r.IntN(4) != 0
			in.SetAHI(f, on)
			m.ahi[f] = on
		}
	case op < 915:
		if f := p.randLRU(); f != Nil {
			o := uint16(r.IntN(4))
			in.SetObserver(f, o)
			m.obs[f] = o
		}
	case op < 917:
		// DDL: drop every page of a space.
		space := uint32(1 + r.IntN(6))
		_, found := in.RemovalScan(space, nil)
		for _, f := range found {
			if m.fix[f] == 0 && m.io[f] == IONone {
				in.Remove(f, true)
				m.remove(f, true)
			}
		}
	default:
		p.now += uint32(r.IntN(300))
	}
}

// compare asserts the instance equals the naive model, list by list, and that every fast
// scan answer equals both the naive model's and the literal walk's.
func (p *pair) compare() {
	in, m := p.in, p.m
	if err := in.Check(); err != nil {
		p.fatalf("Check: %v", err)
	}
	var lru []FrameID
	for f := in.lruHead; f != Nil; f = in.lruNext[f] {
		lru = append(lru, f)
		if in.IsOld(f) != m.old[f] {
			p.fatalf("old flag of %d = %v, naive %v", f, in.IsOld(f), m.old[f])
		}
	}
	if !slices.Equal(lru, m.lru) {
		p.fatalf("LRU order differs:\n got %v\nwant %v", lru, m.lru)
	}
	var tail []FrameID
	for f := range in.LRUFromTail() {
		tail = append(tail, f)
	}
	slices.Reverse(tail)
	if !slices.Equal(tail, m.lru) {
		p.fatalf("LRUFromTail differs")
	}
	if in.LRUOld() != m.lruOld || in.OldLen() != m.oldLen {
		p.fatalf("LRU_old %d/%d len %d/%d", in.LRUOld(), m.lruOld, in.OldLen(), m.oldLen)
	}
	var free []FrameID
	for f := in.freeHead; f != Nil; f = in.lruNext[f] {
		free = append(free, f)
	}
	if !slices.Equal(free, m.free) {
		p.fatalf("free list differs")
	}
	var fl []FrameID
	for f := range in.FlushFromTail() {
		fl = append(fl, f)
	}
	if !slices.Equal(fl, m.flush) {
		p.fatalf("flush list differs:\n got %v\nwant %v", fl, m.flush)
	}
	var back []FrameID
	for f := in.FlushNewest(); f != Nil; f = in.FlushOlder(f) {
		back = append(back, f)
	}
	slices.Reverse(back)
	if !slices.Equal(back, m.flush) {
		p.fatalf("flush list walked from the head differs")
	}
	for i, f := range m.flush {
		if r := in.FlushRank(f); r != i {
			p.fatalf("FlushRank(%d) = %d, want %d", f, r, i)
		}
		if in.OldestMod(f) != m.lsn[f] {
			p.fatalf("OldestMod(%d) = %d, want %d", f, in.OldestMod(f), m.lsn[f])
		}
	}
	if in.FreedClock() != m.freedClock {
		p.fatalf("freed clock %d, naive %d", in.FreedClock(), m.freedClock)
	}

	for space := uint32(0); space <= 7; space++ {
		// (a) removal scan.
		v, fast := in.RemovalScan(space, nil)
		wv, walk := in.WalkRemoval(space, nil)
		var want []FrameID
		for i := len(m.lru) - 1; i >= 0; i-- {
			if m.key[m.lru[i]].Space() == space {
				want = append(want, m.lru[i])
			}
		}
		if v != len(m.lru) || wv != len(m.lru) || !slices.Equal(walk, want) {
			p.fatalf("space %d removal: visited %d/%d/%d, walk %v want %v", space, v, wv, len(m.lru), walk, want)
		}
		slices.Sort(fast)
		slices.Sort(want)
		if !slices.Equal(fast, want) {
			p.fatalf("space %d removal: fast %v want %v", space, fast, want)
		}
		if in.SpacePages(space) != len(want) {
			p.fatalf("SpacePages(%d) = %d, want %d", space, in.SpacePages(space), len(want))
		}
		// (b) flush-list walk to the first page of the space.
		wf, wp := Nil, len(m.flush)
		nd := 0
		for i, f := range m.flush {
			if m.key[f].Space() == space {
				if wf == Nil {
					wf, wp = f, i
				}
				nd++
			}
		}
		ff, fp := in.FlushFirstOfSpace(space)
		lf, lp := in.WalkFlushFirst(func(f FrameID) bool { return in.Key(f).Space() == space })
		if ff != wf || fp != wp || lf != wf || lp != wp {
			p.fatalf("space %d flush first: fast (%d,%d) walk (%d,%d) naive (%d,%d)", space, ff, fp, lf, lp, wf, wp)
		}
		if in.SpaceDirty(space) != nd {
			p.fatalf("SpaceDirty(%d) = %d, want %d", space, in.SpaceDirty(space), nd)
		}
		// The space's dirty pages in flush order.
		var sd, wsd []FrameID
		for f := in.SpaceOldestDirty(space); f != Nil; f = in.SpaceNewerDirty(f) {
			sd = append(sd, f)
		}
		for _, f := range m.flush {
			if m.key[f].Space() == space {
				wsd = append(wsd, f)
			}
		}
		if !slices.Equal(sd, wsd) {
			p.fatalf("space %d dirty walk %v want %v", space, sd, wsd)
		}
		// (c) AHI pass, with a small batch (walk path) and the real one (count path).
		for _, batch := range []int{1, 3, DropSearchSize} {
			fb, fv, fc := in.AHIScan(space, batch, nil)
			wb, wv, wpg := in.WalkAHI(space, batch, nil)
			var nb []int
			var npg []FrameID
			k := 0
			for i := len(m.lru) - 1; i >= 0; i-- {
				f := m.lru[i]
				if m.key[f].Space() == space && m.ahi[f] && m.fix[f] == 0 && m.io[f] == IONone {
					npg = append(npg, f)
					if k++; k == batch {
						nb = append(nb, len(m.lru)-i)
						k = 0
					}
				}
			}
			if !slices.Equal(fb, nb) || !slices.Equal(wb, nb) || fv != len(m.lru) || wv != len(m.lru) ||
				fc != len(npg) || !slices.Equal(wpg, npg) {
				p.fatalf("space %d AHI batch %d: fast (%v,%d,%d) walk (%v,%d,%d) naive (%v,%d,%d)",
					space, batch, fb, fv, fc, wb, wv, len(wpg), nb, len(m.lru), len(npg))
			}
		}
	}
	for o := uint16(1); o < 4; o++ {
		wf, wp, nd := Nil, len(m.flush), 0
		for i, f := range m.flush {
			if m.obs[f] == o {
				if wf == Nil {
					wf, wp = f, i
				}
				nd++
			}
		}
		ff, fp := in.FlushFirstOfObserver(o)
		lf, lp := in.WalkFlushFirst(func(f FrameID) bool { return in.Observer(f) == o })
		if ff != wf || fp != wp || lf != wf || lp != wp {
			p.fatalf("observer %d flush first: fast (%d,%d) walk (%d,%d) naive (%d,%d)", o, ff, fp, lf, lp, wf, wp)
		}
		if in.ObserverDirty(o) != nd {
			p.fatalf("ObserverDirty(%d) = %d, want %d", o, in.ObserverDirty(o), nd)
		}
	}
}

// TestAgainstNaive runs seeded random operation sequences on pools around the
// BUF_LRU_OLD_MIN_LEN threshold and asserts equality with the naive model after every
// operation batch.
func TestAgainstNaive(t *testing.T) {
	for _, tc := range []struct{ frames, steps int }{
		{64, 6000}, {520, 30000}, {900, 40000}, {2000, 40000},
	} {
		for seed := uint64(1); seed <= 3; seed++ {
			t.Run(fmt.Sprintf("frames=%d/seed=%d", tc.frames, seed), func(t *testing.T) {
				p := &pair{t: t, in: New(tc.frames, DefaultOldPct), m: newNaive(tc.frames, DefaultOldPct),
					rng: rand.New(rand.NewPCG(seed, uint64(tc.frames))), hot: tc.frames / 3}
				for i := 0; i < tc.steps; i++ {
					p.step()
					if i%97 == 0 {
						p.compare()
					}
				}
				p.compare()
				t.Logf("stats %+v lru %d old %d flush %d clock %d", p.in.Stats, p.in.LRULen(), p.in.OldLen(), p.in.FlushLen(), p.in.FreedClock())
				if p.in.Stats.Compactions == 0 && tc.frames < 1000 {
					t.Errorf("no flush-list compaction exercised")
				}
			})
		}
	}
}
