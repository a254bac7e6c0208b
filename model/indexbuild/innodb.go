package indexbuild

import (
	"fmt"

	"github.com/ddlsim/ddlsim/sim"
)

// maxChunksPerPass bounds the steps one merge pass or one load is cut into, so the event
// count of an 8-billion-row build stays in the tens of thousands whatever the run count.
const maxChunksPerPass = 32

// maxChunksPerScan bounds the steps of one scan thread.
const maxChunksPerScan = 4096

// readAhead is the size of the clustered-index reads in aggregate mode: InnoDB's linear
// read-ahead brings in one 64-page extent at a time.
func (b *build) readAhead() int64 { return 64 * b.env.PageSize }

// scanned is what a scan left behind for one index: one file per scan thread.
type scanned struct {
	files []fileStats
}

// parallel is the 8.0.27+ build of one statement (ddl::Loader::build_all): a parallel scan
// writing sorted runs, then a task queue of innodb_ddl_threads threads running the per-file
// merge tasks and one load task per index.
func (b *build) parallel(idx []int) {
	s, env := b.s, b.env
	S := max(1, s.ParallelReadThreads)
	if s.Rebuild {
		// Parallel_cursor::scan (ddl0par-scan.cc): a builder that skips the file sort (the
		// new clustered index of a rebuild) forces m_single_threaded_mode, since a parallel
		// scan would break its order; every builder of the statement is then initialised
		// with one thread (one key buffer per index, the whole innodb_ddl_buffer_size split
		// over the indexes only).
		S = 1
	}
	keyBuf, ioBuf := scanBufferSize(s.BufferSize, S, len(idx), env.PageSize)

	// Key buffers, their I/O buffers and the tuple-pointer arrays (m_dtuples is sized for
	// the most entries the buffer can hold; sorting allocates an equal aux array).
	var mem int64
	perRun := make([]int64, len(idx))
	for k, i := range idx {
		ix := s.Indexes[i]
		perRun[k] = entriesPerBuffer(keyBuf, ix.KeyBytes+s.overhead(ix))
		mem += int64(S) * (keyBuf + ioBuf + 2*8*max(1, keyBuf/ix.KeyBytes))
	}
	if !b.allocMem(mem, fmt.Sprintf("%d key buffers of %s", S*len(idx), fmtBytes(keyBuf))) {
		return
	}
	out := b.scan(idx, S, perRun, ioBuf)
	b.freeMem(mem)
	if b.failed() {
		return
	}

	q := &taskq{b: b, out: out, idx: idx, S: S, merging: make([]int, len(idx)),
		mergePh: make([]int, len(idx)), setupAt: make([]sim.Time, len(idx))}
	for k, i := range idx {
		if !b.direct(i) { // a rebuild's clustered index was loaded by the scan threads
			q.push(task{kind: taskSetup, k: k})
		}
	}
	q.run(b.p, max(1, s.Threads))
}

// scan runs S scan threads over the clustered index; each fills one key buffer per index
// and appends a sorted run to its file for that index whenever the buffer is full
// (Parallel_cursor::scan → Builder::add_row → bulk_add_row → key_buffer_sort + serialize).
func (b *build) scan(idx []int, S int, perRun []int64, ioBuf int64) []scanned {
	s, env := b.s, b.env
	ph := b.phase("scan", -1, b.p.Now())
	out := make([]scanned, len(idx))
	for k := range out {
		out[k].files = make([]fileStats, S)
	}
	var g group
	g.add(S)
	leafBase := int64(0)
	for t := 0; t < S; t++ {
		rows := splitRows(s.Rows, t, S)
		leaves := part(s.PKLeafPages, int64(t), int64(S))
		from := leafBase
		leafBase += leaves
		env.Sim.Spawn(fmt.Sprintf("%sddl-scan-%d", b.prefix, t), "ddl", func(p *sim.Proc) {
			defer g.done()
			b.scanThread(p, t, S, rows, from, leaves, idx, perRun, ioBuf, out)
		})
	}
	g.wait(b.p)
	b.res.Phases[ph].End = b.p.Now()
	return out
}

func (b *build) scanThread(p *sim.Proc, t, S int, rows, leafFrom, leaves int64, idx []int,
	perRun []int64, ioBuf int64, out []scanned) {
	s := b.s
	segs := make([]seg, 0, len(idx))
	wb := &writeBack{b: b, p: p}
	defer wb.drain()
	for sc := b.newLeafScan(rows, leafFrom, leaves); sc.next(p); {
		rowsC, done, last := sc.rowsC, sc.done, sc.last()
		ns := float64(rowsC) * b.scanRowNs()
		var write int64
		segs = segs[:0]
		for k, i := range idx {
			ix := s.Indexes[i]
			if b.direct(i) {
				ns += b.directRows(p, wb, i, done, rowsC, rows)
				continue
			}
			E := perRun[k]
			mem := sortFootprint(ix)
			full := (done+rowsC)/E - done/E
			ns += float64(full) * b.sortNs(E, mem, S)
			bytes := full * runBytes(E, ix)
			runs := full
			if last {
				if rem := (done + rowsC) % E; rem > 0 {
					ns += b.sortNs(rem, mem, S)
					bytes += runBytes(rem, ix)
					runs++
				}
			}
			if runs > 0 && out[k].files[t].runs == 0 && !b.openFile(1) {
				return
			}
			f := &out[k].files[t]
			if runs > 0 && f.obj == nil {
				f.obj = b.newFile()
			}
			f.runs += runs
			f.bytes += bytes
			b.res.Runs += runs
			write += bytes
			if bytes > 0 {
				segs = append(segs, seg{f: f.obj, n: bytes})
			}
		}
		b.cpu(p, ns+b.copyNs(write))
		if !b.allocTemp(write) {
			return
		}
		b.fileWrite(p, segs, ioBuf)
	}
	for k := range idx {
		out[k].files[t].rows = rows
	}
}

// Task kinds of the Loader's queue (ddl0loader.cc, Builder::State).
const (
	taskSetup = iota // SETUP_SORT: enqueue one merge task per scan-thread file
	taskMerge        // SORT: Builder::merge_sort of one file
	taskLoad         // BTREE_BUILD: k-way merge of the files into Btree_load
)

type task struct {
	kind uint8
	k    int // position in the statement's index list
	t    int // scan-thread file
}

// taskq is ddl::Loader::Task_queue: an unbounded FIFO served by innodb_ddl_threads threads
// (the DDL thread is one of them). Tasks enqueue their successors; a thread that finds the
// queue empty while every thread is idle exits, and so do the rest.
type taskq struct {
	b   *build
	out []scanned
	idx []int
	S   int

	tasks   []task
	head    int
	threads int // threads still serving
	idle    []*sim.Proc

	merging []int      // merge tasks outstanding per index
	mergePh []int      // phase record of each index's merge
	setupAt []sim.Time // when each index's sort was set up
}

func (q *taskq) push(t task) {
	q.tasks = append(q.tasks, t)
	if len(q.idle) > 0 {
		w := q.idle[0]
		q.idle = q.idle[1:]
		w.Wake(0)
	}
}

// run serves the queue with n threads: p and n-1 helpers; it returns when all have exited.
func (q *taskq) run(p *sim.Proc, n int) {
	q.threads = n
	var g group
	g.add(n - 1)
	for i := 1; i < n; i++ {
		q.b.env.Sim.Spawn(fmt.Sprintf("%sddl-%d", q.b.prefix, i), "ddl", func(w *sim.Proc) {
			defer g.done()
			q.serve(w)
		})
	}
	q.serve(p)
	g.wait(p)
}

func (q *taskq) serve(p *sim.Proc) {
	for {
		for q.head == len(q.tasks) {
			if q.b.failed() || len(q.idle)+1 >= q.threads {
				q.exit()
				return
			}
			q.idle = append(q.idle, p)
			p.Park()
		}
		if q.b.failed() {
			q.exit()
			return
		}
		t := q.tasks[q.head]
		q.head++
		q.exec(p, t)
	}
}

// exit retires a thread and wakes the idle ones so they can see the queue is finished.
func (q *taskq) exit() {
	q.threads--
	idle := q.idle
	q.idle = nil
	for _, w := range idle {
		w.Wake(0)
	}
}

func (q *taskq) exec(p *sim.Proc, t task) {
	b := q.b
	switch t.kind {
	case taskSetup:
		// Builder::create_merge_sort_tasks: one task per scan-thread file (files with fewer
		// than two runs finish at once).
		q.setupAt[t.k] = p.Now()
		q.mergePh[t.k] = b.phase("merge", q.idx[t.k], p.Now())
		q.merging[t.k] = q.S
		for i := 0; i < q.S; i++ {
			q.push(task{kind: taskMerge, k: t.k, t: i})
		}
	case taskMerge:
		b.mergeFile(p, q.idx[t.k], &q.out[t.k].files[t.t], q.S)
		q.merging[t.k]--
		if q.merging[t.k] == 0 && !b.failed() {
			b.res.Phases[q.mergePh[t.k]].End = p.Now()
			q.push(task{kind: taskLoad, k: t.k})
		}
	case taskLoad:
		b.loadIndex(p, q.idx[t.k], q.out[t.k].files, ioBufferSize(b.s.BufferSize, q.S, b.env.PageSize))
	}
}

// mergeFile is Merge_file_sort::sort of one scan-thread file: 2-way passes until one run is
// left. Each pass reads the whole file and writes it to a second file (the first pass
// grows that file to the input's size; later passes swap the two and overwrite). CPU per
// row per pass is MergeRow (record read, compare, copy). Buffers: one output buffer and two
// reader buffers of merge_io_buffer_size(scan threads × 2 + 1). Each run is read from its
// start in whole reader buffers (File_reader::seek), so a pass also reads overRead bytes past
// its runs' ends, which the next run's reader reads again (reread).
func (b *build) mergeFile(p *sim.Proc, i int, f *fileStats, S int) {
	passes := mergePasses(f.runs)
	b.res.IndexPasses[i] = max(b.res.IndexPasses[i], passes)
	b.res.MergePasses = max(b.res.MergePasses, passes)
	if passes == 0 {
		return
	}
	ioSize := ioBufferSize(b.s.BufferSize, S*2+1, b.env.PageSize)
	if !b.openFile(1) {
		return
	}
	defer b.closeFile(1)
	if !b.allocMem(3*ioSize, "merge buffers") {
		return
	}
	defer b.freeMem(3 * ioSize)
	grown := int64(0)
	n := b.chunks(f.bytes, 1, maxChunksPerPass)
	runs := f.runs
	for pass := int64(0); pass < passes; pass++ {
		in, out := f.obj, b.newFile()
		over := overRead(f.bytes, runs, ioSize)
		var off int64
		t0 := p.Now()
		for c := int64(0); c < n; c++ {
			if b.failed() {
				b.fileDrop(out)
				b.freeTemp(grown)
				return
			}
			bytes := part(f.bytes, c, n)
			rows := part(f.rows, c, n)
			extra := part(over, c, n)
			b.fileRead(p, []seg{{f: in, off: off, n: bytes}}, ioSize)
			b.reread(p, in, off, bytes, extra, ioSize)
			off += bytes
			b.cpu(p, float64(rows)*float64(b.env.Costs.MergeRow)+b.copyNs(2*bytes+extra))
			if pass == 0 {
				if !b.allocTemp(bytes) {
					b.fileDrop(out)
					b.freeTemp(grown)
					return
				}
				grown += bytes
			} else {
				b.res.TempBytesWritten += bytes
			}
			b.fileWrite(p, []seg{{f: out, n: bytes}}, ioSize)
		}
		// The input is overwritten by the next pass (or, after the last, deleted).
		b.fileDrop(in)
		f.obj = out
		b.passSpan(i, pass, t0, p.Now())
		runs = ceilDiv(runs, 2)
	}
	// The spare file (the last pass's input) is closed and deleted.
	b.freeTemp(grown)
}

// loadIndex is Builder::btree_build: one thread merges the index's scan-thread files with a
// priority queue (Merge_cursor, queueNs per row) and appends every row to Btree_load, which fills
// pages left to right. The files are closed (deleted) when the index is finished.
func (b *build) loadIndex(p *sim.Proc, i int, files []fileStats, ioSize int64) {
	ph := b.phase("load", i, p.Now())
	var rows, bytes int64
	k := 0
	for _, f := range files {
		if f.runs > 0 {
			rows += f.rows
			bytes += f.bytes
			k++
		}
	}
	var objs []*tfile
	for _, f := range files {
		if f.runs > 0 {
			objs = append(objs, f.obj)
		}
	}
	defer func() {
		for _, o := range objs {
			b.fileDrop(o)
		}
		b.freeTemp(bytes)
		b.closeFile(k)
		b.res.Phases[ph].End = p.Now()
	}()
	if !b.allocMem(int64(max(k, 1))*ioSize, "load buffers") {
		return
	}
	defer b.freeMem(int64(max(k, 1)) * ioSize)
	perRow := float64(b.env.Costs.LoadRow) + queueNs(k, b.env.Costs.SortRow)
	b.loadStream(p, i, rows, objs, ioSize, perRow)
}

// loadStream reads the sorted files (all of them in step, as a k-way merge does) and
// bulk-loads rows of index i.
func (b *build) loadStream(p *sim.Proc, i int, rows int64, files []*tfile, ioSize int64, perRow float64) {
	ix := b.s.Indexes[i]
	pages := indexPages(rows, ix, b.env.PageSize)
	wb := &writeBack{b: b, p: p}
	var bytes int64
	for _, f := range files {
		bytes += f.size
	}
	n := b.chunks(max(bytes, rows*ix.KeyBytes), 1, maxChunksPerPass)
	if n == 0 {
		b.newPages(p, wb, i, pages) // empty table: the root page
		return
	}
	segs := make([]seg, len(files))
	for c := int64(0); c < n && !b.failed(); c++ {
		var read int64
		for j, f := range files {
			segs[j] = seg{f: f, off: f.size * c / n, n: part(f.size, c, n)}
			read += segs[j].n
		}
		b.fileRead(p, segs, ioSize)
		b.cpu(p, float64(part(rows, c, n))*perRow+b.copyNs(read))
		b.newPages(p, wb, i, part(pages, c, n))
	}
	wb.drain()
}

// legacy is the build before 8.0.27 (row0merge.cc row_merge_build_indexes), all on the DDL
// thread: one scan fills one innodb_sort_buffer_size buffer per index and writes each full
// buffer, sorted, as one block-sized run; then index by index a 2-way merge sort
// (row_merge_sort, blocks of sort_buffer_size, output to one shared spare file) and the
// bulk load (row_merge_insert_index_tuples); each index's file is freed after its load.
func (b *build) legacy(idx []int) {
	s, env, p := b.s, b.env, b.p
	block := s.SortBufferSize
	perRun := make([]int64, len(idx))
	var mem int64
	for k, i := range idx {
		ix := s.Indexes[i]
		// row_merge_buf_add refuses an entry once total_size + size >= sort_buffer_size - 1.
		perRun[k] = max(1, (block-2)/(tempRecBytes(ix)+s.overhead(ix)))
		mem += block + 2*8*perRun[k] // buffer, tuples and tuples_aux arrays
	}
	mem += 3 * block // row_merge_build_indexes' merge block (3 × srv_sort_buf_size)
	if !b.allocMem(mem, "sort buffers") {
		return
	}
	defer b.freeMem(mem)
	nfiles := len(idx) + 1 // one file per sorted index + the spare tmpfd
	for _, i := range idx {
		if b.direct(i) {
			nfiles--
		}
	}
	if !b.openFile(nfiles) {
		return
	}
	defer b.closeFile(nfiles)

	// Scan: single-threaded, one block written per run. In a rebuild the new clustered
	// index is loaded here, in key order, as the scan goes (clust_btr_bulk).
	ph := b.phase("scan", -1, p.Now())
	files := make([]fileStats, len(idx))
	for k, i := range idx {
		if !b.direct(i) {
			files[k].obj = b.newFile()
		}
	}
	wb := &writeBack{b: b, p: p}
	segs := make([]seg, 0, len(idx))
	for sc := b.newLeafScan(s.Rows, 0, s.PKLeafPages); sc.next(p); {
		rowsC, done := sc.rowsC, sc.done
		ns := float64(rowsC) * b.scanRowNs()
		var write int64
		segs = segs[:0]
		for k, i := range idx {
			ix := s.Indexes[i]
			if b.direct(i) {
				ns += b.directRows(p, wb, i, done, rowsC, s.Rows)
				continue
			}
			E := perRun[k]
			runs := (done+rowsC)/E - done/E
			ns += float64(runs) * b.sortNs(E, sortFootprint(ix), 1)
			if sc.last() {
				if rem := (done + rowsC) % E; rem > 0 {
					ns += b.sortNs(rem, sortFootprint(ix), 1)
					runs++
				}
			}
			files[k].runs += runs
			files[k].bytes += runs * block
			b.res.Runs += runs
			write += runs * block
			if runs > 0 {
				segs = append(segs, seg{f: files[k].obj, n: runs * block})
			}
		}
		b.cpu(p, ns+b.copyNs(write))
		if !b.allocTemp(write) {
			break
		}
		b.fileWrite(p, segs, block)
	}
	wb.drain()
	b.res.Phases[ph].End = p.Now()
	var spare int64 // the shared tmpfd grows to the largest file merged so far
	defer func() { b.freeTemp(spare) }()
	for k, i := range idx {
		if b.direct(i) {
			continue // loaded during the scan
		}
		if b.failed() {
			for _, f := range files[k:] {
				if f.obj != nil {
					b.fileDrop(f.obj)
					b.freeTemp(f.bytes)
				}
			}
			return
		}
		f := &files[k]
		f.rows = s.Rows
		mph := b.phase("merge", i, p.Now())
		passes := mergePasses(f.runs)
		b.res.IndexPasses[i] = passes
		b.res.MergePasses = max(b.res.MergePasses, passes)
		if passes > 0 && f.bytes > spare {
			if !b.allocTemp(f.bytes - spare) {
				b.fileDrop(f.obj)
				b.freeTemp(f.bytes)
				continue
			}
			b.res.TempBytesWritten -= f.bytes - spare // counted as written below
			spare = f.bytes
		}
		m := b.chunks(f.bytes, 1, maxChunksPerPass)
		for pass := int64(0); pass < passes && !b.failed(); pass++ {
			in, out := f.obj, b.newFile()
			var off int64
			t0 := p.Now()
			for c := int64(0); c < m; c++ {
				bytes := part(f.bytes, c, m)
				b.fileRead(p, []seg{{f: in, off: off, n: bytes}}, block)
				off += bytes
				b.cpu(p, float64(part(f.rows, c, m))*float64(env.Costs.MergeRow)+b.copyNs(2*bytes))
				b.res.TempBytesWritten += bytes
				b.fileWrite(p, []seg{{f: out, n: bytes}}, block)
			}
			b.fileDrop(in) // the two files swap: the input is overwritten by the next pass
			f.obj = out
			b.passSpan(i, pass, t0, p.Now())
		}
		b.res.Phases[mph].End = p.Now()
		lph := b.phase("load", i, p.Now())
		b.loadStream(p, i, f.rows, []*tfile{f.obj}, block, float64(env.Costs.LoadRow))
		b.res.Phases[lph].End = p.Now()
		b.fileDrop(f.obj)
		b.freeTemp(f.bytes)
	}
}

// leafScan is the chunked walk of the clustered index every build does (the scan of
// row_merge_read_clustered_index, or one Parallel_reader range): chunk c of n holds
// part(rows, c, n) rows, and its share of the leaves is read before its rows are processed.
type leafScan struct {
	b                  *build
	rows, from, leaves int64 // rows and leaves to scan, from leaf `from` on
	c, n               int64 // current chunk and chunk count
	rowsC, done        int64 // rows of the current chunk; rows scanned before it
	leafDone, leafEnd  int64 // leaves read before the current chunk; after it
}

func (b *build) newLeafScan(rows, from, leaves int64) *leafScan {
	bytesPerRow := max(1, leaves*b.env.PageSize/max(1, rows))
	return &leafScan{b: b, rows: rows, from: from, leaves: leaves, c: -1, n: b.chunks(rows, bytesPerRow, maxChunksPerScan)}
}

// next moves to the next chunk and reads its leaves (through the pool, or as read-ahead
// extents from the data device); false after the last chunk or once the build failed.
func (sc *leafScan) next(p *sim.Proc) bool {
	if sc.c >= 0 {
		sc.done += sc.rowsC
		sc.leafDone = sc.leafEnd
	}
	sc.c++
	if sc.c >= sc.n || sc.b.failed() {
		return false
	}
	sc.rowsC = part(sc.rows, sc.c, sc.n)
	sc.leafEnd = sc.leaves * (sc.done + sc.rowsC) / max(1, sc.rows)
	if sc.last() {
		sc.leafEnd = sc.leaves
	}
	if nl := sc.leafEnd - sc.leafDone; nl > 0 {
		sc.b.readLeaves(p, sc.from+sc.leafDone, nl)
	}
	return true
}

// last reports whether the current chunk is the final one.
func (sc *leafScan) last() bool { return sc.c == sc.n-1 }

// direct reports whether index i is loaded straight from the scan: the new clustered index
// of a rebuild (Spec.Rebuild), whose records arrive in key order and need no sort.
func (b *build) direct(i int) bool { return b.s.Rebuild && i == 0 }

// directRows loads rows [done, done+n) of the scan into the new clustered index of a
// rebuild: their share of its pages is created now, and the CPU of building and copying
// each record is returned for the scan to charge with its own.
// total is the rows this loader gets in all (the table, or one scan thread's range, whose
// subtree it builds).
func (b *build) directRows(p *sim.Proc, wb *writeBack, i int, done, n, total int64) float64 {
	c := &b.env.Costs
	ix := b.s.Indexes[i]
	pages := indexPages(total, ix, b.env.PageSize)
	b.newPages(p, wb, i, pages*(done+n)/max(1, total)-pages*done/max(1, total))
	return float64(n)*float64(c.RebuildRow+c.LoadRow) + b.copyNs(n*ix.KeyBytes)
}
