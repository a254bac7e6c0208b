package schema

import (
	"math/rand/v2"
	"testing"
)

// naivePath is Path as first written: each level's ancestor divided from the leaf by
// NodeRecs^(depth-1-l) in 64 bits.
func naivePath(ix *Index, leaf int64) []PageID {
	n := ix.LeafPages()
	leaf = min(max(leaf, 0), n-1)
	anc := make([]int64, ix.Depth)
	div := int64(1)
	for l := ix.Depth - 1; l >= 0; l-- {
		anc[l] = min(leaf/div, ix.LevelPages[l]-1)
		div *= int64(ix.NodeRecs)
	}
	var out []PageID
	for l := range ix.Depth {
		out = append(out, MakePageID(ix.Space, ix.levelBase[l]+uint32(anc[l])))
	}
	return out
}

// Path (successive 32-bit quotients) and LeafOf (32-bit when it fits) agree with the 64-bit
// arithmetic on indexes from one page to billions of rows, clamped leaves included.
func TestPathAndLeafOfAgainstNaive(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	for _, rows := range []int64{1, 50, 10_000, 2_500_000, 100_000_000, 8_000_000_000} {
		for _, rec := range []int{20, 190, 1200} {
			ix := NewIndex("t", 7, 3, rows, rec, 8, 16384)
			for range 2000 {
				leaf := r.Int64N(ix.LeafPages()+10) - 5
				got, want := ix.Path(nil, leaf), naivePath(ix, leaf)
				if len(got) != len(want) {
					t.Fatalf("rows %d rec %d leaf %d: %v, want %v", rows, rec, leaf, got, want)
				}
				for i := range got {
					if got[i] != want[i] {
						t.Fatalf("rows %d rec %d leaf %d: %v, want %v", rows, rec, leaf, got, want)
					}
				}
				i := r.Int64N(rows)
				if ix.LeafOf(i) != i/int64(ix.LeafRecs) {
					t.Fatalf("LeafOf(%d) = %d", i, ix.LeafOf(i))
				}
			}
			if buf := ix.Path([]PageID{42}, 0); buf[0] != 42 || len(buf) != ix.Depth+1 {
				t.Fatalf("Path does not append: %v", buf)
			}
		}
	}
}
