//go:build cgo

package calib

import (
	"fmt"
	"math/rand/v2"
	"sync"
	"testing"

	"github.com/ddlsim/ddlsim/model/calib/cbench"
	"github.com/ddlsim/ddlsim/model/schema"
)

// The CPU of sysbench's statements by access path (docs/cpu-model.md): C transcriptions of
// MariaDB 10.11's loops (model/calib/cbench) on a real-format B-tree of one sysbench table,
// 1M rows, shaped as model/schema shapes it (records per leaf and per node pointer page, so
// that the levels are the model's). Every benchmark reports ns per operation; medians of
// ≥ 5 runs under cpu-exclusive are in docs/cpu-model.md:
//
//	cpu-exclusive go test -run '^$' -bench 'PageGet|PageSearch|Descent|AHI|Point|Range|StmtLog|PageFlush' -count 5 ./model/calib/
//
// "cold" draws keys uniformly over the table (216 MiB of leaves, beyond the 32 MiB L3: the
// leaf is a DRAM access, as for a random sysbench row), "hot" from 16 leaves (cached).

const cpRows = 1_000_000

var (
	cpOnce             sync.Once
	cpClust, cpSec     *cbench.Tree
	cpCold, cpHot      []int32
	cpSecCold          []int32
	cpShape, cpSecShap *schema.Index
)

func cpTrees(b *testing.B) {
	b.Helper()
	if !cbench.Available {
		b.Skip("needs cgo")
	}
	cpOnce.Do(func() {
		tab := schema.NewSysbenchTable("sbtest1", "g", 5, cpRows, 1, 16384)
		cpShape, cpSecShap = tab.Primary, tab.Secondary[0]
		cpClust = cbench.NewTree(cpRows, cpShape.LeafRecs, cpShape.NodeRecs, cbench.Clustered, false, 1)
		cpSec = cbench.NewTree(cpRows, cpSecShap.LeafRecs, cpSecShap.NodeRecs, cbench.Secondary, false, 2)
		r := rand.New(rand.NewPCG(5, 6))
		cpCold = make([]int32, 1<<20)
		cpSecCold = make([]int32, 1<<20)
		for i := range cpCold {
			cpCold[i] = int32(1 + r.Int64N(cpRows-200))
			cpSecCold[i] = int32(1 + r.Int64N(cpRows))
		}
		cpHot = make([]int32, 1<<16)
		leaves := make([]int64, 16)
		for i := range leaves {
			leaves[i] = r.Int64N(cpRows / int64(cpShape.LeafRecs))
		}
		for i := range cpHot {
			l := leaves[r.IntN(len(leaves))]
			cpHot[i] = int32(1 + l*int64(cpShape.LeafRecs) + r.Int64N(int64(cpShape.LeafRecs)))
		}
	})
	if cpClust.Height != cpShape.Depth || cpSec.Height != cpSecShap.Depth {
		b.Fatalf("tree heights %d/%d, model/schema's %d/%d", cpClust.Height, cpSec.Height, cpShape.Depth, cpSecShap.Depth)
	}
}

func cpPages(t *cbench.Tree, keys []int32, level int) []uint32 {
	p := make([]uint32, len(keys))
	for i, k := range keys {
		p[i] = t.PageAt(k, level)
	}
	return p
}

// BenchmarkPageGet is buf_page_get_gen of a resident page and its release at mtr commit: the
// page hash lookup under its cell latch, the buffer-fix, the page's S latch, the make-young
// check, the memo: one level's page access without the search in it.
func BenchmarkPageGet(b *testing.B) {
	cpTrees(b)
	for _, c := range []struct {
		name string
		keys []int32
	}{{"root", cpHot}, {"leaf-hot", cpHot}, {"leaf-cold", cpCold[:1<<16]}} {
		b.Run(c.name, func(b *testing.B) {
			lv := 0
			if c.name == "root" {
				lv = cpClust.Height - 1
			}
			pages := cpPages(cpClust, c.keys, lv)
			b.ResetTimer()
			cpClust.PageGet(pages, b.N)
		})
	}
}

// BenchmarkPageSearch is page_cur_search_with_match on one page of a descent: the directory
// binary search and the linear tail, rec_get_offsets of the key field and
// cmp_dtuple_rec_with_match per step (cmps/op). "bytes" is the bytewise leaf variant MariaDB
// 10.11 uses when the AHI is on. Upper levels are always cached; a cold leaf is not.
func BenchmarkPageSearch(b *testing.B) {
	cpTrees(b)
	type cs struct {
		name  string
		tree  *cbench.Tree
		keys  []int32
		level int
		bytes bool
	}
	cases := []cs{
		{"clust-root", cpClust, cpCold[:1<<16], cpClust.Height - 1, false},
		{"clust-leaf-hot", cpClust, cpHot, 0, false},
		{"clust-leaf-cold", cpClust, cpCold[:1<<16], 0, false},
		{"clust-leaf-cold-bytes", cpClust, cpCold[:1<<16], 0, true},
		{"sec-leaf-cold", cpSec, cpSecCold[:1<<16], 0, false},
	}
	for l := 1; l < cpClust.Height-1; l++ {
		cases = append(cases, cs{fmt.Sprintf("clust-level%d", l), cpClust, cpCold[:1<<16], l, false})
	}
	for _, c := range cases {
		b.Run(c.name, func(b *testing.B) {
			pages := cpPages(c.tree, c.keys, c.level)
			b.ResetTimer()
			cmps := c.tree.PageSearch(pages, c.keys, b.N, c.bytes)
			b.ReportMetric(float64(cmps)/float64(b.N), "cmps/op")
		})
	}
}

// BenchmarkDescent is a whole btr_cur_t::search_leaf (BTR_SEARCH_LEAF, PAGE_CUR_GE) and the
// mtr commit: the index S latch, per level a page get, the parent's release and the page
// search. "ahi-on" adds what MariaDB does on a descent when the AHI is enabled: the bytewise
// leaf search and btr_search_info_update (no page build).
func BenchmarkDescent(b *testing.B) {
	cpTrees(b)
	for _, c := range []struct {
		name  string
		keys  []int32
		ahiOn bool
	}{{"hot", cpHot, false}, {"hot-ahi-on", cpHot, true}, {"cold", cpCold, false}, {"cold-ahi-on", cpCold, true}} {
		b.Run(c.name, func(b *testing.B) {
			var a *cbench.AHI
			if c.ahiOn {
				a = cbench.NewAHI(1<<20, 16)
				defer a.Free()
			}
			b.ResetTimer()
			cpClust.Point(a, cbench.NoGuess, c.ahiOn, c.keys, b.N, false)
			b.ReportMetric(float64(cpClust.Height), "levels")
		})
	}
}

// ahiCells is a partition's hash cells for a pool: btr_search_sys_create's pool bytes /
// sizeof(void*) / 64, split over innodb_adaptive_hash_index_parts (8).
func ahiCells(pool int64) int { return int(pool / 8 / 64 / 8) }

// BenchmarkAHIGuess is a point lookup through btr_search_guess_on_hash with every leaf of the
// table hashed: dtuple_fold, the partition's S latch, the chain walk, the block from the
// record's address, its latch and fix, btr_search_check_guess (one compare for a unique
// match). Partition sizes of a 1 GiB and a 4 GiB pool (α = entries / cells ≈ 4 and 1).
func BenchmarkAHIGuess(b *testing.B) {
	cpTrees(b)
	for _, pool := range []int64{1 << 30, 4 << 30} {
		a := cbench.NewAHI(ahiCells(pool), cpRows+1024)
		cpClust.BuildAll(a)
		for _, k := range []struct {
			name string
			keys []int32
		}{{"hot", cpHot}, {"cold", cpCold}} {
			b.Run(fmt.Sprintf("pool=%dG/%s", pool>>30, k.name), func(b *testing.B) {
				v0 := a.Visits()
				b.ResetTimer()
				hits := cpClust.Point(a, cbench.AlwaysGuess, true, k.keys, b.N, false)
				b.StopTimer()
				b.ReportMetric(float64(hits)/float64(b.N), "hits/op")
				b.ReportMetric(float64(a.Visits()-v0)/float64(b.N), "nodes/op")
				b.ReportMetric(float64(a.Entries())/float64(ahiCells(pool)), "alpha")
			})
		}
		a.Free()
	}
}
