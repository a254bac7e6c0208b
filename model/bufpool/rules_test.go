package bufpool

import (
	"slices"
	"testing"
)

func filled(t *testing.T, frames, pages int) *Instance {
	t.Helper()
	in := New(frames, DefaultOldPct)
	for i := 0; i < pages; i++ {
		in.AddToLRU(in.TakeFree(), MakePageID(1, uint32(i)), true)
	}
	if err := in.Check(); err != nil {
		t.Fatal(err)
	}
	return in
}

// TestMakeYoungRules pins buf_page_peek_if_too_old case by case.
func TestMakeYoungRules(t *testing.T) {
	in := filled(t, 2000, 2000)
	old := in.LRUTail()
	young := in.LRUHead()
	if !in.IsOld(old) || in.IsOld(young) {
		t.Fatalf("tail old=%v head old=%v", in.IsOld(old), in.IsOld(young))
	}
	// Before the first eviction nothing moves, whatever the times.
	if in.Touch(old, 0) || in.Touch(old, 5000) {
		t.Fatal("page made young before any eviction")
	}
	if ms, ok := in.FirstAccessMs(old); !ok || ms != 0 {
		t.Fatalf("first access %d %v, want 0 true", ms, ok)
	}
	in.Remove(in.LRUTail(), true) // first eviction
	old = in.LRUTail()
	// Old page: not within old_blocks_time of its first access, yes after.
	if in.Touch(old, 100) || in.Touch(old, 1099) {
		t.Fatal("old page promoted within innodb_old_blocks_time")
	}
	if !in.Touch(old, 1100) {
		t.Fatal("old page not promoted after innodb_old_blocks_time")
	}
	in.MakeYoung(old)
	if in.LRUHead() != old || in.IsOld(old) || in.Stats.MadeYoung != 1 {
		t.Fatalf("MakeYoung: head %d old=%v stats %+v", in.LRUHead(), in.IsOld(old), in.Stats)
	}
	// Young page: stays put until freed_page_clock has advanced by
	// curr_size*(1024-ratio)/(1024*4) since it was put at the head.
	thr := 2000 * (1024 - 378) / 4096
	if in.Touch(old, 1200) {
		t.Fatal("fresh young page promoted")
	}
	for i := 0; i < thr-1; i++ {
		f := in.LRUTail()
		in.Remove(f, true)
		in.AddToLRU(in.TakeFree(), MakePageID(2, uint32(i)), true)
	}
	if in.Touch(old, 1300) {
		t.Fatalf("young page promoted after %d evictions (< threshold %d)", thr-1, thr)
	}
	in.Remove(in.LRUTail(), true)
	if !in.Touch(old, 1300) {
		t.Fatalf("young page not promoted after %d evictions", thr)
	}
	// innodb_old_blocks_time = 0: old pages use the young test too.
	in.SetOldBlocksTime(0)
	f := in.LRUTail()
	if !in.Touch(f, 1300) { // stamp 0: far behind the clock
		t.Fatal("old page with old_blocks_time=0 not promoted")
	}
	if err := in.Check(); err != nil {
		t.Fatal(err)
	}
}

// TestMidpointInsertion: a new read lands right after LRU_old; a created page at the head.
func TestMidpointInsertion(t *testing.T) {
	in := filled(t, 1000, 600)
	o := in.LRUOld()
	f := in.TakeFree()
	in.AddToLRU(f, MakePageID(9, 1), true)
	if in.LRUPrev(f) != o && in.LRUOld() != f {
		t.Fatalf("read page not inserted after LRU_old")
	}
	g := in.TakeFree()
	in.AddToLRU(g, MakePageID(9, 2), false)
	if in.LRUHead() != g || in.IsOld(g) {
		t.Fatal("created page not at the head")
	}
	want := int64(in.LRULen()) * 378 / 1024
	if d := int64(in.OldLen()) - want; d > OldTolerance || d < -OldTolerance {
		t.Fatalf("old len %d, want %d±%d", in.OldLen(), want, OldTolerance)
	}
	// Below BUF_LRU_OLD_MIN_LEN the old sublist disappears.
	for in.LRULen() >= OldMinLen {
		in.Remove(in.LRUTail(), false)
	}
	if in.LRUOld() != Nil || in.OldLen() != 0 || in.IsOld(in.LRUTail()) {
		t.Fatal("old sublist survives below BUF_LRU_OLD_MIN_LEN")
	}
	if err := in.Check(); err != nil {
		t.Fatal(err)
	}
}

// TestEvictCandidateSkips: dirty, fixed and io-fixed pages are passed over and counted.
func TestEvictCandidateSkips(t *testing.T) {
	in := filled(t, 100, 100)
	var tail []FrameID
	for f := range in.LRUFromTail() {
		tail = append(tail, f)
	}
	in.MarkDirty(tail[0], 10)
	in.Fix(tail[1])
	in.SetIOFix(tail[2], IOWrite)
	f, n := in.EvictCandidate(3)
	if f != Nil || n != 3 {
		t.Fatalf("EvictCandidate(3) = %d,%d, want Nil,3", f, n)
	}
	// The iterator kept its place (tail[3] is young in a pool below 512 pages).
	f, n = in.EvictCandidate(0)
	if f != tail[3] || n != 1 {
		t.Fatalf("EvictCandidate resumed at %d after %d, want %d after 1", f, n, tail[3])
	}
	if !in.Blocked(tail[1]) || !in.Blocked(tail[2]) || in.Blocked(tail[0]) {
		t.Fatal("Blocked")
	}
}

// TestHazardPointers: a saved position moves towards the head when its frame leaves.
func TestHazardPointers(t *testing.T) {
	in := filled(t, 100, 100)
	f := in.LRUTail()
	in.SetLRUHP(f)
	p := in.LRUPrev(f)
	in.Remove(f, true)
	if in.LRUHP() != p {
		t.Fatalf("LRU hp %d, want %d", in.LRUHP(), p)
	}
	var d []FrameID
	for g := in.LRUHead(); len(d) < 5; g = in.LRUNext(g) {
		in.MarkDirty(g, uint64(len(d)+1))
		d = append(d, g)
	}
	in.SetFlushHP(d[1])
	in.MarkClean(d[1])
	if in.FlushHP() != d[2] {
		t.Fatalf("flush hp %d, want %d", in.FlushHP(), d[2])
	}
	in.Remove(d[2], true)
	if in.FlushHP() != d[3] {
		t.Fatalf("flush hp %d, want %d", in.FlushHP(), d[3])
	}
}

// TestFlushIterationAcrossCompaction: a page-cleaner loop that cleans what it visits while
// new pages get dirty (forcing renumbering) visits every node once, in order.
func TestFlushIterationAcrossCompaction(t *testing.T) {
	in := filled(t, 64, 64)
	lsn := uint64(0)
	for i := 0; i < 80; i++ { // use up sequence slots
		lsn++
		in.MarkDirty(in.LRUHead(), lsn)
		in.MarkClean(in.LRUHead())
	}
	var all []FrameID
	for f := range in.LRUFromTail() {
		lsn++
		in.MarkDirty(f, lsn)
		all = append(all, f)
		if len(all) == 40 {
			break
		}
	}
	rest := []FrameID{}
	for f := in.LRUHead(); len(rest) < 20; f = in.LRUNext(f) {
		rest = append(rest, f)
	}
	var seen []FrameID
	i := 0
	for f := range in.FlushFromTail() {
		seen = append(seen, f)
		in.MarkClean(f)
		if i < len(rest) && len(seen)%2 == 0 {
			lsn++
			in.MarkDirty(rest[i], lsn)
			i++
		}
	}
	if in.Stats.Compactions == 0 {
		t.Fatal("no compaction happened")
	}
	want := append(slices.Clone(all), rest...)
	if !slices.Equal(seen, want) {
		t.Fatalf("visited %v\nwant %v", seen, want)
	}
	if err := in.Check(); err != nil {
		t.Fatal(err)
	}
}

// TestCheckCatchesCorruption: the checker is not vacuous.
func TestCheckCatchesCorruption(t *testing.T) {
	for name, corrupt := range map[string]func(in *Instance){
		"lru link":   func(in *Instance) { in.lruPrev[in.lruTail] = Nil },
		"old flag":   func(in *Instance) { in.setOld(in.lruHead, true) },
		"hash":       func(in *Instance) { in.hot[in.lruHead].key++ },
		"flush bit":  func(in *Instance) { in.fbits[0] ^= 2 },
		"fenwick":    func(in *Instance) { in.fen[1]++ },
		"lsn order":  func(in *Instance) { in.oldestMod[in.FlushOldest()] = 1 << 40 },
		"space list": func(in *Instance) { in.spaces[0].n++ },
		"observer":   func(in *Instance) { in.obs[1].dirty++ },
	} {
		in := filled(t, 1000, 900)
		lsn := uint64(1)
		for f := range in.LRUFromTail() {
			if lsn < 50 {
				in.MarkDirty(f, lsn)
				in.SetObserver(f, 1)
			}
			lsn++
		}
		corrupt(in)
		if in.Check() == nil {
			t.Errorf("%s: corruption not detected", name)
		}
	}
}

func TestPageID(t *testing.T) {
	p := MakePageID(7, 42)
	if p.Space() != 7 || p.Page() != 42 || p.String() != "7:42" {
		t.Fatal(p)
	}
}

// TestReturnFree: a frame taken and returned unused goes back to the free-list head.
func TestReturnFree(t *testing.T) {
	in := New(8, DefaultOldPct)
	f := in.TakeFree()
	in.ReturnFree(f)
	if in.FreeLen() != 8 || in.TakeFree() != f {
		t.Fatal("ReturnFree did not restore the free-list head")
	}
	in.ReturnFree(f)
	if err := in.Check(); err != nil {
		t.Fatal(err)
	}
}
