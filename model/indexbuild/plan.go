package indexbuild

import (
	"math"

	"github.com/ddlsim/ddlsim/model/config"
)

// This file is the arithmetic of the build: buffer split, run sizes, run and pass counts,
// file sizes, index page counts. It mirrors the real code's rules so that the simulated
// phases only have to spend the resulting work, chunk by chunk.

// scanBufferSize is ddl::Context::scan_buffer_size (ddl0ctx.cc): the key-buffer and I/O
// buffer sizes of each of the scan threads × indexes buffers that share
// innodb_ddl_buffer_size. The I/O buffer is carved out of the share: 1 MiB if the share is
// >= 2 MiB, 512 KiB if >= 1 MiB, 128 KiB if >= 512 KiB, 64 KiB if >= 256 KiB, else 32 KiB;
// a share of 64 KiB or less keeps the default I/O size max(page/2, 1.25 × IO_BLOCK_SIZE).
func scanBufferSize(total int64, scanThreads, indexes int, pageSize int64) (key, io int64) {
	n := int64(max(1, scanThreads) * max(1, indexes))
	key = total / n
	io = max(pageSize/2, ioBlockSize+ioBlockSize*25/100)
	if key <= 64*kib {
		if key < pageSize {
			key = pageSize
		} else if key >= 2*io {
			key -= io
		}
		return key, io
	}
	switch {
	case key >= 2*mib:
		io = mib
	case key >= mib:
		io = 512 * kib
	case key >= 512*kib:
		io = 128 * kib
	case key >= 256*kib:
		io = 64 * kib
	default:
		io = 32 * kib
	}
	return key - io, io
}

// ioBufferSize is ddl::Context::load_io_buffer_size / merge_io_buffer_size: the total
// buffer divided by the number of buffers, rounded down to IO_BLOCK_SIZE, at least a page.
func ioBufferSize(total int64, buffers int, pageSize int64) int64 {
	return max(pageSize, ioBlockSize, total/int64(max(1, buffers))/ioBlockSize*ioBlockSize)
}

// entriesPerBuffer is how many entries of entryMem bytes a key buffer of size bytes takes
// before Key_sort_buffer::will_fit refuses the next one (the first always fits).
func entriesPerBuffer(size, entryMem int64) int64 {
	return max(1, (size-1)/max(1, entryMem))
}

// tempRecBytes is an entry as serialized to a temp file: the record plus the 1-byte
// extra-size prefix (Key_sort_buffer::serialize).
func tempRecBytes(ix Index) int64 { return ix.KeyBytes + 1 }

// runBytes is the temp-file size of a run of n entries: records, the end-of-run zero byte,
// padded to IO_BLOCK_SIZE.
func runBytes(n int64, ix Index) int64 {
	if n <= 0 {
		return 0
	}
	return alignUp(n*tempRecBytes(ix)+1, ioBlockSize)
}

// fileStats describes one sort file: the runs a scan thread wrote for one index.
type fileStats struct {
	rows, runs, bytes int64
	obj               *tfile // the file's current content (page-cache bookkeeping)
}

// scanFile is the file one scan thread writes for one index from rows rows with runs of
// perRun entries.
func scanFile(rows, perRun int64, ix Index) fileStats {
	if rows <= 0 {
		return fileStats{}
	}
	full := rows / perRun
	f := fileStats{rows: rows, runs: full, bytes: full * runBytes(perRun, ix)}
	if rem := rows % perRun; rem > 0 {
		f.runs++
		f.bytes += runBytes(rem, ix)
	}
	return f
}

// mergePasses is the pass count of Merge_file_sort::sort (and row_merge_sort): each pass
// merges pairs of runs (N_WAY_MERGE = 2) until one run is left.
func mergePasses(runs int64) int64 {
	if runs <= 1 {
		return 0
	}
	return ceilLog2(runs)
}

// splitRows gives scan thread t of n its share of rows (Parallel_reader splits the index
// into ranges of about equal size).
func splitRows(rows int64, t, n int) int64 {
	q, r := rows/int64(n), rows%int64(n)
	if int64(t) < r {
		return q + 1
	}
	return q
}

// indexPages is the page count of a bulk-loaded index of rows entries and its node-pointer
// levels. With innodb_fill_factor at its default of 100, a clustered index keeps
// dict_index_get_space_reserve() = 1/16 of each page free; a secondary index reserves
// page × (100 − fill_factor)/100 = nothing and is filled to the brim (Page_load /
// PageBulk::isSpaceAvailable).
func indexPages(rows int64, ix Index, pageSize int64) int64 {
	if rows <= 0 {
		return 1
	}
	usable := pageSize - 128 // FIL header/trailer, page header, infimum/supremum
	if ix.Clustered {
		usable = pageSize*15/16 - 128
	}
	perLeaf := max(1, usable/(ix.KeyBytes+5+1))   // 5-byte record header, ~1 byte of page directory
	perNode := max(2, usable/(ix.KeyBytes+4+5+1)) // node pointer: key + child page number
	pages := ceilDiv(rows, perLeaf)
	total := pages
	for pages > 1 {
		pages = ceilDiv(pages, perNode)
		total += pages
	}
	return total
}

// sortNs is the CPU, in ns, of merge-sorting n entries taking footprint bytes of memory
// each (ddl0buffer.cc merge_sort, row_merge_buf_sort; MyRocks' offset tree costs the same
// log2 n compares per entry). Each entry pays one SortRow for its key extraction and copy,
// plus one compare per level. The top-down merge sort of a sub-range only touches entries
// that were adjacent when added, so a level whose sub-ranges (2^level entries) fit in the
// sorting thread's share of the last-level cache compares cached data (SortRow); above
// that every compare fetches entries from DRAM (SortRowMiss, measured by model/calib's
// BenchmarkKeySortBuffer).
func (b *build) sortNs(n, footprint int64, sorters int) float64 {
	if n <= 0 {
		return 0
	}
	c := &b.env.Costs
	levels := ceilLog2(n)
	share := b.env.CacheBytes / int64(max(1, sorters))
	inCache := int64(0)
	if share > footprint {
		inCache = int64(math.Floor(math.Log2(float64(share) / float64(footprint))))
	}
	inCache = min(max(inCache, 0), levels)
	miss := float64(c.SortRowMiss)
	if miss == 0 {
		miss = max(float64(c.ListNode), float64(c.SortRow))
	}
	return float64(n) * (float64(1+inCache)*float64(c.SortRow) + float64(levels-inCache)*miss)
}

// sortFootprint is the memory one entry of index ix takes in a key buffer, whatever the
// version's accounting charges (Spec.overhead): its data, a dfield_t per field, and its
// pointers in the tuple array and the sort's auxiliary array (8.0.18's mtuple_t arrays, the
// same in ddl0buffer.cc).
func sortFootprint(ix Index) int64 { return ix.KeyBytes + dfieldBytes*int64(max(1, ix.Fields)) + 16 }

// IndexPages is the page count (all levels) of index ix bulk-loaded with rows entries: the
// pages a build creates for it (Pool.NewPages calls add up to this).
func IndexPages(rows int64, ix Index, pageSize int64) int64 { return indexPages(rows, ix, pageSize) }

// scanRowNs is the CPU, in ns, of the build's scan on one clustered row: Costs.BuildRow
// (the build's own per-row work, measured by model/calib's BenchmarkCScan), or Costs.Row
// for a profile that does not give it.
func (b *build) scanRowNs() float64 {
	if c := b.env.Costs.BuildRow; c > 0 {
		return float64(c)
	}
	return float64(b.env.Costs.Row)
}

// overRead is what one Merge_file_sort pass over a file of fileBytes in runs runs reads
// beyond the runs themselves. Merge_file_sort::merge_ranges positions each of its two
// File_readers at the start of a run (Cursor::seek → File_reader::read → seek, ddl0merge.cc
// and ddl0file-reader.cc), and seek preads min(buffer, file size − offset) bytes from there;
// read_next continues in whole buffers. A run of r bytes is thus read as ⌈r/buf⌉ buffers,
// and the tail of the last one belongs to the runs after it, which their own readers read
// again. Runs are taken as equal (the file's bytes over its runs, the remainder in the last);
// the reads of the last runs stop at the end of the file. 0 for a single run.
func overRead(fileBytes, runs, buf int64) int64 {
	if runs < 2 || fileBytes <= 0 || buf <= 0 {
		return 0
	}
	rb := max(1, fileBytes/runs)
	rem := fileBytes - runs*rb     // the last run holds the remainder
	span := ceilDiv(rb, buf) * buf // bytes read from a run's start
	// Every run but the last reads span bytes, or up to the end of the file when fewer are
	// left: the run m runs from the end (m >= 2) has m·rb + rem bytes after its start. The
	// last run is read to the end of the file.
	tail := min(runs, max(0, ceilDiv(span-rem, rb)-1)) // m = 2..tail are cut short
	total := rb + rem
	if tail >= 2 {
		n := tail - 1
		total += (runs-1-n)*span + rb*(tail*(tail+1)/2-1) + rem*n
	} else {
		total += (runs - 1) * span
	}
	return max(0, total-fileBytes)
}

// queueNs is the CPU, in ns, that Merge_cursor's std::priority_queue over k files adds to
// each row the load takes (ddl0builder.cc Merge_cursor::fetch pops the smallest reader,
// Merge_cursor::next pushes it back with its next record): the pop sifts a hole down to a
// leaf and the last element back up, the push sifts up; per row that is about 1.5·log2 k
// compares (model/calib BenchmarkCLoadCursor counts 1.00 / 3.58 / 4.93 / 6.11 for k = 2 / 4
// / 8 / 16; TestCKMergeQueue holds the count within 0.6 of it), each a cmp_rec_rec_simple of
// two serialized records, which costs about one cached sort level (the same benchmark's
// increment over one file: 8.8-10.1 ns a compare at k = 4-16 against sort_row's 11 ns for
// the k shape). One file: no queue work (load_row is measured over one file).
func queueNs(k int, sortRow config.Duration) float64 {
	if k < 2 {
		return 0
	}
	return 1.5 * math.Log2(float64(k)) * float64(sortRow)
}
