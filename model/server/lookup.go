package server

import (
	"math"

	"github.com/ddlsim/ddlsim/model/bufpool"
	"github.com/ddlsim/ddlsim/model/schema"
	"github.com/ddlsim/ddlsim/sim"
)

// The lookup by access path (docs/cpu-model.md §2.2, §2.3, §9.2): with the access-path costs
// on, a B-tree search is either
//   - an AHI guess (btr_search_guess_on_hash): the AHI is on, the index has passed its
//     analysis (n_hash_potential: BTR_SEARCH_HASH_ANALYSIS + BTR_SEARCH_BUILD_LIMIT searches)
//     and the target leaf is resident and hashed: ahi_guess is charged and only the leaf is
//     accessed (buf_page_get_known_nowait on the guessed block) — the upper levels are not
//     touched, nor their LRU positions;
//   - or a descent (btr_cur_t::search_leaf): the index S latch, then per level the page
//     access (page_hit) and the page's binary search, compares(n_recs) × rec_cmp; with the
//     AHI on, the bytewise leaf search and btr_search_info_update (ahi_descent).
//
// Simplified: the search info's last_hash_succ is not kept — a leaf that is hashed is
// guessed, one that is not is descended without a failed guess first (a failed guess costs
// the fold and the chain walk, ~0.1–0.9 µs, and happens after each miss); fold collisions
// (0.09 % of keys) are not modelled; a compare is charged at one rate, hot or cold alike
// (rec_cmp_miss, a leaf outside the LLC, is not yet split out).

// pageCompares is the compares of page_cur_search_with_match on a page of n records: a
// binary search over the ~n/4 directory slots, then a linear walk of the ≤ 4 records of the
// slot (benchmark PageSearch counts 6.6 on a 72-record leaf, 10.5 on a 1,140-record node
// page; this gives 6.7 and 10.7).
func pageCompares(n int) float64 {
	return max(math.Log2(float64(max(n, 1))/4)+2.5, 1)
}

// levelRecs is the records on a page of level i (0 = root) of ix.
func levelRecs(ix *schema.Index, i int) int {
	if i >= ix.Depth-1 || i+1 >= len(ix.LevelPages) {
		return ix.LeafRecs
	}
	return int((ix.LevelPages[i+1] + ix.LevelPages[i] - 1) / ix.LevelPages[i])
}

// lookup is Search with the access-path costs on.
func (t *Thread) lookup(ix *schema.Index, path []schema.PageID, write bool) {
	s := t.Srv
	c := &s.Costs.Path
	last := len(path) - 1
	if s.AHI && t.guessable(ix, path[last]) {
		t.Charge(c.AHIGuess)
		s.Paths.Guesses++
		in, f := t.access(path[last], write)
		t.Searched(ix, in, f)
		return
	}
	s.Paths.Descents++
	t.Charge(c.IndexLatch)
	if s.AHI {
		t.Charge(c.AHIDescent)
	}
	for i, p := range path[:last] {
		t.access(p, false)
		t.Charge(compareCPU(c, levelRecs(ix, i)))
	}
	in, f := t.access(path[last], write)
	t.Charge(compareCPU(c, ix.LeafRecs))
	t.Searched(ix, in, f)
}

func compareCPU(c *PathCosts, n int) sim.Time {
	return sim.Time(pageCompares(n) * float64(c.RecCmp))
}

// guessable reports whether btr_search_guess_on_hash would answer a search of ix for leaf:
// the index's search info recommends the hash (it has had its analysis searches) and the
// leaf is resident, not being read, and carries entries.
func (t *Thread) guessable(ix *schema.Index, leaf schema.PageID) bool {
	if ix.Searches <= ahiAnalysis+ahiBuildLimit {
		return false
	}
	in := t.Srv.InstanceOf(leaf)
	f := in.BP.Lookup(bufpool.PageID(leaf))
	return f != bufpool.Nil && in.BP.IOFix(f) != bufpool.IORead && in.BP.HasAHI(f)
}
