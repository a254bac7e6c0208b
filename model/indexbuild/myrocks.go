package indexbuild

import "github.com/ddlsim/ddlsim/sim"

// MyRocks record framing in the merge buffer and file (rdb_index_merge.h): an 8-byte key
// length and an 8-byte value length per record, an 8-byte chunk length per chunk; the key
// starts with the 4-byte index number.
const (
	rdbRecOverhead   = 16 + 4
	rdbChunkHeader   = 8
	rdbTreeNodeBytes = 48 // std::set node of the offset tree (3 pointers, colour, payload)
)

// myrocks is MyRocks' inplace secondary-index build (ha_rocksdb::inplace_populate_sk with
// Rdb_index_merge), all on the DDL thread:
//
//  1. one scan of the primary key; each row's entry for every new index goes into that
//     index's rocksdb_merge_buf_size buffer and offset tree (std::set: log2 n compares per
//     insert); a full buffer is written in tree order as one chunk of merge_buf_size bytes,
//     followed by an fsync (merge_buf_write);
//  2. index by index, one k-way heap merge over all chunks (merge_heap_prepare,
//     merge_heap_pop_and_get_next): each chunk is read rocksdb_merge_combine_read_size / k
//     bytes at a time (at most merge_buf_size), each row costs log2 k compares, and goes to
//     the SST file writer, whose files are then ingested.
//
// Only the read size of step 2 depends on merge_combine_read_size, which is why it barely
// moves the build time on fast storage.
func (b *build) myrocks(idx []int) {
	s, env, p := b.s, b.env, b.p
	M := s.MyRocks.MergeBufSize
	perChunk := make([]int64, len(idx))
	for k, i := range idx {
		perChunk[k] = max(1, (M-rdbChunkHeader)/(s.Indexes[i].KeyBytes+rdbRecOverhead))
	}
	// Each index holds its unsorted buffer and its output buffer during the scan.
	scanMem := int64(len(idx)) * 2 * M
	if !b.allocMem(scanMem, "merge buffers") {
		return
	}
	if !b.openFile(len(idx)) {
		b.freeMem(scanMem)
		return
	}
	defer b.closeFile(len(idx))

	ph := b.phase("scan", -1, p.Now())
	chunks := make([]int64, len(idx))
	files := make([]*tfile, len(idx))
	for k := range files {
		files[k] = b.newFile()
	}
	segs := make([]seg, 0, len(idx))
	synced := make([]*tfile, 0, len(idx))
	for sc := b.newLeafScan(s.Rows, 0, s.PKLeafPages); sc.next(p); {
		rowsC, done := sc.rowsC, sc.done
		ns := float64(rowsC) * b.scanRowNs()
		var write int64
		segs, synced = segs[:0], synced[:0]
		for k, i := range idx {
			E := perChunk[k]
			mem := s.Indexes[i].KeyBytes + rdbRecOverhead + rdbTreeNodeBytes
			full := (done+rowsC)/E - done/E
			ns += float64(full) * b.sortNs(E, mem, 1)
			written := full
			if sc.last() {
				if rem := (done + rowsC) % E; rem > 0 {
					ns += b.sortNs(rem, mem, 1)
					// The last partial buffer is written only if earlier chunks exist;
					// otherwise the merge reads it straight from the tree.
					if chunks[k]+full > 0 {
						written++
					}
				}
			}
			chunks[k] += written
			b.res.Runs += written
			write += written * M // the whole buffer is written, however full
			if written > 0 {
				segs = append(segs, seg{f: files[k], n: written * M})
				for j := int64(0); j < written; j++ {
					synced = append(synced, files[k])
				}
			}
		}
		b.cpu(p, ns+b.copyNs(write))
		if !b.allocTemp(write) {
			break
		}
		b.fileWrite(p, segs, M)
		for _, f := range synced { // merge_buf_write: fsync after every chunk
			b.fileSync(p, f)
		}
	}
	b.res.Phases[ph].End = p.Now()
	b.freeMem(scanMem)

	c := &env.Costs
	for k, i := range idx {
		if b.failed() {
			for j, K := range chunks[k:] {
				b.fileDrop(files[k+j])
				b.freeTemp(K * M)
			}
			return
		}
		K := chunks[k]
		ix := s.Indexes[i]
		lph := b.phase("load", i, p.Now())
		read := min(M, s.MyRocks.MergeCombineReadSize/max(1, K))
		mem := max(1, K) * read
		if !b.allocMem(mem, "merge heap chunk buffers") {
			b.fileDrop(files[k])
			b.freeTemp(K * M)
			continue
		}
		b.res.IndexPasses[i] = min(K, 1)
		b.res.MergePasses = max(b.res.MergePasses, b.res.IndexPasses[i])
		perRow := float64(c.MergeRow) + float64(ceilLog2(K))*float64(c.SortRow) + float64(c.LoadRow)
		sst := s.Rows * (ix.KeyBytes + 8) // SST data blocks, uncompressed, ~8 bytes of block overhead per key
		m := b.chunks(max(K*M, sst), 1, maxChunksPerPass)
		for j := int64(0); j < m && !b.failed(); j++ {
			r := part(K*M, j, m)
			b.fileRead(p, []seg{{f: files[k], off: K * M * j / m, n: r}}, read)
			b.cpu(p, float64(part(s.Rows, j, m))*perRow+b.copyNs(r))
			b.io(p, env.Data, 0, sim.Write, part(sst, j, m), 0)
		}
		b.freeMem(mem)
		b.fileDrop(files[k])
		b.freeTemp(K * M)
		b.res.Phases[lph].End = p.Now()
	}
}
