package calib

import (
	"fmt"
	"math/rand/v2"
	"testing"
)

// The adaptive hash index's per-record costs (btr0sea.cc, ha0ha.cc; docs/innodb-source.md §7):
// dropping a page's entries folds each record on the page (rec_get_offsets, rec_fold) and,
// under the partition's X latch, deletes one hash node per distinct fold
// (HASH_DELETE_AND_COMPACT: a walk of the node's cell chain to unlink it, then the heap-top
// node moved into the hole and its own chain walked to relink it). On a pool-sized table every
// chain node is a cache miss, so the cost is per node visited: `costs.ahi_node`. The fold is
// `costs.ahi_fold`.

// haTable is ha0ha's chained hash table: cells point to the first node of their chain; nodes
// (ha_node_t: next, data, fold — 24 bytes) live in one heap that grows at its top and is kept
// compact on delete. ha_insert_for_fold walks the chain (to update a node with the same fold)
// and HASH_INSERT appends at its end, so the heap-top node — the newest — is at the end of its
// chain: the compaction after a delete walks that whole chain.
type haTable struct {
	cells []int64 // node index + 1, 0 = empty (a pointer's worth of bytes, as hash_cell_t)
	nodes []haNode
	visit uint64 // chain nodes visited
}

type haNode struct {
	next int64 // node index + 1
	data uint64
	fold uint64
}

func (h *haTable) cell(fold uint64) *int64 { return &h.cells[fold%uint64(len(h.cells))] }

func (h *haTable) insert(fold, data uint64) {
	c := h.cell(fold)
	h.nodes = append(h.nodes, haNode{data: data, fold: fold})
	id := int64(len(h.nodes))
	link := c
	for n := *c; n != 0; n = h.nodes[n-1].next {
		h.visit++
		link = &h.nodes[n-1].next
	}
	*link = id
}

// remove is ha_remove_a_node_to_page + ha_delete_hash_node (HASH_DELETE_AND_COMPACT).
func (h *haTable) remove(fold, data uint64) bool {
	c := h.cell(fold)
	prev := c
	for n := *c; n != 0; n = h.nodes[n-1].next {
		h.visit++
		nd := &h.nodes[n-1]
		if nd.fold == fold && nd.data == data {
			*prev = nd.next
			h.compact(n)
			return true
		}
		prev = &nd.next
	}
	return false
}

// compact moves the heap-top node into hole (1-based) and relinks its predecessor.
func (h *haTable) compact(hole int64) {
	top := int64(len(h.nodes))
	if hole != top {
		t := h.nodes[top-1]
		c := h.cell(t.fold)
		prev := c
		for n := *c; n != 0; n = h.nodes[n-1].next {
			h.visit++
			if n == top {
				*prev = hole
				break
			}
			prev = &h.nodes[n-1].next
		}
		h.nodes[hole-1] = t
	}
	h.nodes = h.nodes[:top-1]
}

// BenchmarkAHIDropPage drops one page's entries (recs distinct folds) from a table of cells
// cells at load factor alpha and inserts them back, as a steady AHI sees: ns per chain node
// visited (deletes, compactions and inserts alike) is costs.ahi_node; nodes/delete checks
// the model's 2 + 1.5·α (server/ahi.go) and nodes/insert its α. Sizes: 512 MiB and 2 GiB of pool per partition (pool/512 cells; 8 or 32 MiB of cells),
// well past the last-level cache.
//
//	go test -run '^$' -bench AHIDropPage -count 5 ./model/calib/
func BenchmarkAHIDropPage(b *testing.B) {
	for _, c := range []struct {
		cells int
		alpha float64
	}{{1 << 20, 2.3}, {1 << 20, 8}, {4 << 20, 2.3}, {4 << 20, 8}} {
		b.Run(fmt.Sprintf("cells=%dM/alpha=%g", c.cells>>20, c.alpha), func(b *testing.B) {
			const recs = 70 // a sysbench primary-key leaf
			h := &haTable{cells: make([]int64, c.cells)}
			pages := int(c.alpha * float64(c.cells) / recs)
			r := rand.New(rand.NewPCG(1, 2))
			folds := make([][recs]uint64, pages)
			for p := range pages {
				for i := range recs {
					folds[p][i] = r.Uint64()
					h.insert(folds[p][i], uint64(p))
				}
			}
			h.visit = 0
			var del uint64
			b.ResetTimer()
			for range b.N {
				p := r.IntN(pages)
				v0 := h.visit
				for i := range recs {
					if !h.remove(folds[p][i], uint64(p)) {
						b.Fatal("missing node")
					}
				}
				del += h.visit - v0
				for i := range recs {
					h.insert(folds[p][i], uint64(p))
				}
			}
			b.StopTimer()
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(h.visit), "ns/node")
			b.ReportMetric(float64(del)/float64(b.N*recs), "nodes/delete")
			b.ReportMetric(float64(h.visit-del)/float64(b.N*recs), "nodes/insert")
			b.ReportMetric(2+1.5*c.alpha, "model-nodes/delete")
		})
	}
}

// BenchmarkRecFold is one record's share of btr_search_drop_page_hash_index outside the latch:
// rec_get_offsets of a compact-format record (the null bitmap and the variable-length
// header read back to front for each field) and rec_fold of its first n_fields fields
// (ut_fold_ulint_pair over the bytes, seeded with the index fold). Records are read in page
// order from a page-sized buffer, so they come from cache after the first: costs.ahi_fold.
//
//	go test -run '^$' -bench RecFold -count 5 ./model/calib/
func BenchmarkRecFold(b *testing.B) {
	// A sysbench row: id INT, k INT, c CHAR(120), pad CHAR(60) (+ DB_TRX_ID, DB_ROLL_PTR):
	// 6 fields, fixed length, a 5-byte extra header; 70 of them on a 16 KiB page.
	const nFields, recBytes, perPage = 6, 206, 70
	widths := [nFields]int{4, 6, 7, 4, 120, 60}
	page := make([]byte, 16384)
	r := rand.New(rand.NewPCG(3, 4))
	for i := range page {
		page[i] = byte(r.UintN(256))
	}
	var offs [nFields + 1]int
	var sink uint64
	b.ResetTimer()
	for i := range b.N {
		rec := page[120+(i%perPage)*recBytes:]
		// rec_get_offsets: walk the field list, accumulating end offsets (the extra bytes
		// are read for the null bitmap; these columns are NOT NULL).
		o := 5
		for f := range nFields {
			if rec[0]&(1<<(f%8)) != 0 && f > 5 { // a null bit test that never fires
				continue
			}
			o += widths[f]
			offs[f+1] = o
		}
		// rec_fold on the first field (the 4-byte primary key): ut_fold_binary.
		fold := uint64(0xC2B2AE3D27D4EB4F)
		for _, c := range rec[5:offs[1]] {
			fold = ((fold << 6) + (fold >> 2) + uint64(c)) ^ 0x9E3779B97F4A7C15
		}
		sink += fold
	}
	b.StopTimer()
	if sink == 42 {
		b.Log(sink)
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N), "ns/rec")
}

// BenchmarkDescriptorScan reads one field of each control block in a sequential pass over a
// chunk's blocks (~400-byte buf_block_t laid out contiguously), as Percona's lazy drop does
// for its AHI pass over every block of every chunk: costs.block_scan. 393,216 blocks: one
// instance of a 48 GiB pool in 8 instances.
//
//	go test -run '^$' -bench DescriptorScan -count 5 ./model/calib/
func BenchmarkDescriptorScan(b *testing.B) {
	type block struct {
		state, space uint32
		index        uint64
		_            [384]byte
	}
	const n = 393_216
	blocks := make([]block, n)
	for i := range blocks {
		blocks[i].space = uint32(i % 17)
		blocks[i].index = uint64(i % 5)
	}
	found := 0
	b.ResetTimer()
	for i := range b.N {
		bl := &blocks[i%n]
		if bl.state == 0 && bl.index != 0 && bl.space == 3 {
			found++
		}
	}
	b.StopTimer()
	if found < 0 {
		b.Fatal(found)
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N), "ns/block")
}
