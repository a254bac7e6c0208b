//go:build cgo

package calib

import (
	"fmt"
	"hash/crc32"
	"math/rand/v2"
	"testing"

	"github.com/ddlsim/ddlsim/model/calib/cbench"
)

// BenchmarkPointSelect is the InnoDB part of sysbench's point select, SELECT c FROM sbtest
// WHERE id = ?: positioning (descent, or the AHI's guess with every leaf hashed in a 4 GiB
// pool's partition), then the row (rec_get_offsets of the record, the read view check,
// row_sel_store_mysql_rec of c), then the mtr commit. The row's share is "row" minus "pos".
func BenchmarkPointSelect(b *testing.B) {
	cpTrees(b)
	a := cbench.NewAHI(ahiCells(4<<30), cpRows+1024)
	defer a.Free()
	cpClust.BuildAll(a)
	for _, c := range []struct {
		name  string
		guess int
		row   bool
	}{{"descent/pos", cbench.NoGuess, false}, {"descent/row", cbench.NoGuess, true},
		{"ahi/pos", cbench.AlwaysGuess, false}, {"ahi/row", cbench.AlwaysGuess, true}} {
		b.Run(c.name, func(b *testing.B) {
			b.ResetTimer()
			cpClust.Point(a, c.guess, c.guess != cbench.NoGuess, cpCold, b.N, c.row)
		})
	}
}

// BenchmarkPointMT runs point selects by descent in 1 and 2 OS threads at once (this VM has
// 2 vCPUs) on hot keys: the index latch and the upper pages' latch and fix words are cache
// lines every descent writes, so with two threads each atomic may find its line on the other
// core. ns/op is CPU time per lookup (both threads' CPU / lookups).
func BenchmarkPointMT(b *testing.B) {
	cpTrees(b)
	for _, th := range []int{1, 2} {
		b.Run(fmt.Sprintf("threads=%d", th), func(b *testing.B) {
			b.ResetTimer()
			cpu := cpClust.PointMT(cpHot, b.N, th)
			b.StopTimer()
			b.ReportMetric(float64(cpu)/float64(b.N*th), "cpu-ns/lookup")
		})
	}
}

// BenchmarkAHIPage drops and rebuilds the hash index of one leaf (btr_search_drop_page_hash_
// index, btr_search_build_page_hash_index) in a 4 GiB pool's partition with every leaf
// hashed: ns per page of each (ns/op is both), and per record.
func BenchmarkAHIPage(b *testing.B) {
	cpTrees(b)
	a := cbench.NewAHI(ahiCells(4<<30), cpRows+1024)
	defer a.Free()
	cpClust.BuildAll(a)
	pages := cpPages(cpClust, cpCold[:1<<16], 0)
	b.ResetTimer()
	d, bu := cpClust.DropBuild(a, pages, b.N)
	b.StopTimer()
	recs := float64(cpShape.LeafRecs)
	b.ReportMetric(float64(d)/float64(b.N), "drop-ns/page")
	b.ReportMetric(float64(bu)/float64(b.N), "build-ns/page")
	b.ReportMetric(float64(bu)/float64(b.N)/recs, "build-ns/rec")
}

// BenchmarkAHIRecord is the AHI's maintenance of one record change on a hashed leaf:
// btr_search_update_hash_on_delete (fold, X latch, find and delete the node, compact the
// heap) and btr_search_update_hash_on_insert (three folds, X latch, a new node and the next
// record's refreshed). ns/op includes the descent that finds the record; the two costs are
// del-ns and ins-ns.
func BenchmarkAHIRecord(b *testing.B) {
	cpTrees(b)
	for _, pool := range []int64{1 << 30, 4 << 30} {
		b.Run(fmt.Sprintf("pool=%dG", pool>>30), func(b *testing.B) {
			a := cbench.NewAHI(ahiCells(pool), cpRows+1024)
			defer a.Free()
			cpClust.BuildAll(a)
			b.ResetTimer()
			d, in := cpClust.DelIns(a, cpCold, b.N)
			b.StopTimer()
			b.ReportMetric(float64(d)/float64(b.N), "del-ns")
			b.ReportMetric(float64(in)/float64(b.N), "ins-ns")
		})
	}
}

// BenchmarkAHILatch is the partition latch's X acquisition and release that
// btr_cur_update_in_place does around an update of a record on a hashed page (uncontended).
func BenchmarkAHILatch(b *testing.B) {
	if !cbench.Available {
		b.Skip("needs cgo")
	}
	a := cbench.NewAHI(1024, 16)
	defer a.Free()
	b.ResetTimer()
	a.Latch(b.N)
}

// BenchmarkRange is a range of 100 rows by primary key (sysbench's simple, sum, order and
// distinct ranges): positioning by descent, then row_search_mvcc's per-row step (next
// record, offsets, visibility, row_sel_store_mysql_rec; the prefetch cache from the 5th row,
// a page change every ~72 rows). ns/op is the whole range; row-ns is per row.
func BenchmarkRange(b *testing.B) {
	cpTrees(b)
	for _, c := range []struct {
		name  string
		templ int
	}{{"c", 0}, {"sum-k", 1}} {
		b.Run(c.name, func(b *testing.B) {
			b.ResetTimer()
			pos, rows := cpClust.Range(cpCold, b.N, 100, c.templ)
			b.StopTimer()
			b.ReportMetric(float64(pos)/float64(b.N), "pos-ns")
			b.ReportMetric(float64(rows)/float64(b.N)/100, "row-ns")
		})
	}
}

// BenchmarkStmtLog is one write statement's undo record and redo records, mini-transaction
// by mini-transaction, with each mtr's commit into the log buffer (log latch, LSN, copy,
// CRC-32C) and, when the page was clean ("dirty"), the flush list's mutex: redo bytes/op.
// The records are on 64 cached rows: the page accesses are charged apart.
func BenchmarkStmtLog(b *testing.B) {
	cpTrees(b)
	kinds := []struct {
		name string
		kind int
	}{{"update-nonkey", cbench.UpdateNonKey}, {"update-key", cbench.UpdateKey}, {"delete", cbench.Delete},
		{"insert-reuse", cbench.Insert}, {"insert-new", cbench.InsertNew}, {"commit", cbench.Commit}}
	for _, k := range kinds {
		for _, dirty := range []bool{false, true} {
			name := k.name
			if dirty {
				name += "/dirty"
			}
			b.Run(name, func(b *testing.B) {
				lg := cbench.NewLog(16 << 20)
				defer lg.Free()
				b.ResetTimer()
				bytes := cpClust.StmtLog(lg, k.kind, cpHot[:64], b.N, dirty)
				b.StopTimer()
				b.ReportMetric(float64(bytes)/float64(b.N), "redo-B/op")
			})
		}
	}
}

// BenchmarkMtrCommit is one mini-transaction of one WRITE record of n bytes and its commit
// into the log buffer (log latch, LSN, copy, CRC-32C; "dirty": and the flush-list insertion
// under its mutex): the slope over n is the per-byte cost of redo, the intercept the
// per-mtr cost.
func BenchmarkMtrCommit(b *testing.B) {
	if !cbench.Available {
		b.Skip("needs cgo")
	}
	for _, dirty := range []bool{false, true} {
		for _, n := range []int{8, 64, 256, 1024} {
			name := fmt.Sprintf("bytes=%d", n)
			if dirty {
				name += "/dirty"
			}
			b.Run(name, func(b *testing.B) {
				lg := cbench.NewLog(16 << 20)
				defer lg.Free()
				b.ResetTimer()
				bytes := lg.MtrWrite(n, b.N, dirty)
				b.StopTimer()
				b.ReportMetric(float64(bytes)/float64(b.N), "redo-B/op")
			})
		}
	}
}

// BenchmarkPageFlush is the CPU buf_flush_page spends on a page before its write is
// submitted, with innodb_checksum_algorithm=full_crc32 and the doublewrite buffer (MariaDB
// 10.11 buf_flush_init_for_writing → buf_page_full_crc32: CRC-32C over the page but its last 4
// bytes; buf_dblwr_t::add_to_batch: the page copied into the doublewrite batch). Go's
// hash/crc32 Castagnoli on amd64 is the same SSE4.2 three-stream loop as MariaDB's crc32c
// (a faithful analogue); copy is memmove. "cold": the page comes from a 256 MiB set.
func BenchmarkPageFlush(b *testing.B) {
	tab := crc32.MakeTable(crc32.Castagnoli)
	for _, c := range []struct {
		name  string
		pages int
	}{{"hot", 1}, {"cold", 16384}} {
		b.Run(c.name, func(b *testing.B) {
			pool := make([]byte, c.pages*16384)
			r := rand.New(rand.NewPCG(9, 9))
			for i := 0; i < len(pool); i += 64 {
				pool[i] = byte(r.Uint32())
			}
			dblwr := make([]byte, 64*16384)
			order := make([]int, 4096)
			for i := range order {
				order[i] = r.IntN(c.pages)
			}
			var sink uint32
			b.ResetTimer()
			for i := range b.N {
				p := order[i%len(order)] * 16384
				page := pool[p : p+16384]
				crc := crc32.Checksum(page[:16384-4], tab)
				page[16380], page[16381], page[16382], page[16383] = byte(crc>>24), byte(crc>>16), byte(crc>>8), byte(crc)
				slot := (i % 64) * 16384
				copy(dblwr[slot:slot+16384], page)
				sink += crc
			}
			b.StopTimer()
			if sink == 1 {
				b.Log(sink)
			}
		})
	}
}

// BenchmarkPause is one PAUSE instruction, the unit of InnoDB's spin loops: MariaDB 10.11's
// srw locks spin innodb_sync_spin_loops (30) rounds of my_cpu_relax_multiplier / 4 ×
// innodb_spin_wait_delay (4) PAUSEs before they wait on a futex (sync/srw_lock.cc,
// srw_pause_delay); relax-multiplier is my_cpu_init's choice on this CPU.
func BenchmarkPause(b *testing.B) {
	if !cbench.Available {
		b.Skip("needs cgo")
	}
	m := cbench.RelaxMultiplier()
	b.ResetTimer()
	cbench.Pause(b.N)
	b.StopTimer()
	b.ReportMetric(float64(m), "relax-multiplier")
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)*float64(m/4*4*30)/1000, "full-spin-us")
}
