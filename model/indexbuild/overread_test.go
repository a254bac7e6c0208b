package indexbuild

import "testing"

// naiveOverRead walks Merge_file_sort's readers literally: each run of a file of equal runs
// is read from its start in buffer-sized preads (File_reader::seek, read_next), each cut at
// the end of the file; what is read beyond the file's bytes is the over-read.
func naiveOverRead(fileBytes, runs, buf int64) int64 {
	if runs < 2 {
		return 0
	}
	rb := fileBytes / runs
	var total int64
	for i := int64(0); i < runs; i++ {
		start, end := i*rb, (i+1)*rb
		if i == runs-1 {
			end = fileBytes
		}
		for pos := start; pos < end; pos += buf {
			total += min(buf, fileBytes-pos)
		}
	}
	return total - fileBytes
}

func TestOverReadMatchesReaders(t *testing.T) {
	for _, runs := range []int64{1, 2, 3, 7, 64, 1000} {
		for _, rb := range []int64{4 * kib, 100 * kib, 1 * mib, 3 * mib} {
			for _, buf := range []int64{64 * kib, 1 * mib, 3*mib + 512*kib, 64 * mib} {
				for _, fb := range []int64{runs * rb, runs*rb + rb/3 + runs - 1} {
					if got, want := overRead(fb, runs, buf), naiveOverRead(fb, runs, buf); got != want {
						t.Errorf("%d B in %d runs, buffer %d: overRead %d, readers %d", fb, runs, buf, got, want)
					}
				}
			}
		}
	}
}

// TestMergeReadsWholeBuffers: without a page cache, an 8.0.27+ build reads its sort file
// once per merge pass plus what the pass's readers read past their runs (the naive walk
// above, pass by pass as the runs pair up), plus once for the load. It fails if the merge
// reads only its runs' bytes.
func TestMergeReadsWholeBuffers(t *testing.T) {
	ix := Index{Name: "k", KeyBytes: 20, Fields: 3}
	sp := Spec{Version: "8.0.32", Rows: 2e6, Indexes: []Index{ix}, Threads: 1,
		ParallelReadThreads: 1, BufferSize: mib}
	te := newTestEnv()
	key, _ := scanBufferSize(sp.BufferSize, 1, 1, te.env.PageSize)
	f := scanFile(sp.Rows, entriesPerBuffer(key, ix.KeyBytes+entryOverhead(sp.Version, ix)), ix)
	buf := ioBufferSize(sp.BufferSize, 3, te.env.PageSize)
	if buf <= f.bytes/f.runs {
		t.Fatalf("setup: runs of %d B are not shorter than the %d B reader buffer", f.bytes/f.runs, buf)
	}
	want := f.bytes // the load
	for runs := f.runs; runs > 1; runs = ceilDiv(runs, 2) {
		want += f.bytes + naiveOverRead(f.bytes, runs, buf)
	}
	r := runWith(t, te, sp)
	if r.TempBytesRead != want || r.TempDeviceBytesRead != want {
		t.Errorf("read %d B (device %d), want %d (%d runs, %d passes; runs' bytes alone: %d)",
			r.TempBytesRead, r.TempDeviceBytesRead, want, f.runs, r.MergePasses, f.bytes*(r.MergePasses+1))
	}
}
