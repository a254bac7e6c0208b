package bufpool

import (
	"math/rand/v2"
	"testing"
)

// FlushAt inverts FlushRank on a list with holes, across compactions.
func TestFlushAtInvertsRank(t *testing.T) {
	in := filled(t, 3000, 3000)
	r := rand.New(rand.NewPCG(3, 4))
	var frames []FrameID
	for f := in.LRUTail(); f != Nil; f = in.LRUPrev(f) {
		frames = append(frames, f)
	}
	lsn := uint64(0)
	for round := 0; round < 20; round++ {
		for i := 0; i < 1500; i++ {
			f := frames[r.IntN(len(frames))]
			if r.IntN(2) == 0 {
				in.MarkClean(f)
			} else {
				lsn++
				in.MarkDirty(f, lsn)
			}
		}
		rank := 0
		for f := in.FlushOldest(); f != Nil; f = in.FlushNewer(f) {
			if g := in.FlushAt(rank); g != f {
				t.Fatalf("round %d: FlushAt(%d) = %d, want %d", round, rank, g, f)
			}
			rank++
		}
		if rank != in.FlushLen() || in.FlushAt(rank) != Nil || in.FlushAt(-1) != Nil {
			t.Fatalf("round %d: bounds", round)
		}
	}
	if in.Stats.Compactions == 0 {
		t.Fatal("no compaction happened")
	}
}

// A position outlives its node's removal: FlushNewerThan leads to the next newer live node,
// the walk's stale link; a compaction invalidates it; FlushEnd moves with every insertion.
func TestFlushPositions(t *testing.T) {
	in := filled(t, 64, 64)
	d := make([]FrameID, 5)
	f := in.LRUTail()
	for i := range d {
		d[i] = f
		in.MarkDirty(f, uint64(i+1))
		f = in.LRUPrev(f)
	}
	p := in.FlushPosOf(d[1])
	end := in.FlushEnd()
	in.MarkClean(d[1])
	in.MarkClean(d[2])
	if g, ok := in.FlushNewerThan(p); !ok || g != d[3] {
		t.Fatalf("FlushNewerThan = %d %v, want %d", g, ok, d[3])
	}
	if in.FlushEnd() != end {
		t.Fatal("FlushEnd moved without an insertion")
	}
	in.MarkDirty(d[1], 9)
	if in.FlushPosOf(d[1]) == p || in.FlushEnd() == end {
		t.Fatal("a new insertion kept its old position")
	}
	if g, ok := in.FlushNewerThan(in.FlushPosOf(d[4])); !ok || g != d[1] {
		t.Fatalf("after the head: %d %v, want %d", g, ok, d[1])
	}
	for i := 0; i < 200; i++ { // exhaust the slots: compaction
		in.MarkDirty(in.LRUHead(), 10)
		in.MarkClean(in.LRUHead())
	}
	if _, ok := in.FlushNewerThan(p); ok {
		t.Fatal("a position survived a compaction")
	}
}
