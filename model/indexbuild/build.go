package indexbuild

import (
	"fmt"
	"math"

	"github.com/ddlsim/ddlsim/sim"
)

// Build runs one index-build statement (or, with spec.OneAtATime, one statement per index,
// each rescanning the table) on behalf of p, the DDL thread. It blocks p until the build is
// done or has failed, spawning helper processes (kind "ddl") for scan and DDL threads.
//
// A build that runs out of a modelled resource (temp space, open files, memory) stops and
// returns Failed with the reason MySQL would report; Build never panics on a resource limit.
// A malformed spec (no indexes, unknown engine) is also reported as Failed.
func Build(p *sim.Proc, env Env, spec Spec) Result {
	res := Result{Start: p.Now()}
	s, err := spec.withDefaults(&env)
	if err != nil {
		res.Failed, res.Reason, res.End = true, err.Error(), p.Now()
		return res
	}
	res.IndexPasses = make([]int64, len(s.Indexes))
	b := &build{env: &env, s: &s, res: &res, p: p}
	b.pc = newPageCache(b, env.PageCacheBytes)
	b.pc.dontneed = s.Engine == "innodb"
	defer b.pc.dropAll()
	all := make([]int, len(s.Indexes))
	for i := range all {
		all[i] = i
	}
	if s.OneAtATime {
		for k, i := range all {
			b.prefix = fmt.Sprintf("s%d/", k+1)
			b.statement([]int{i})
			if res.Failed {
				break
			}
		}
	} else {
		b.statement(all)
	}
	res.End = p.Now()
	return res
}

// build is the state of one Build call.
type build struct {
	env    *Env
	s      *Spec
	res    *Result
	p      *sim.Proc
	prefix string // phase-name prefix of the current statement
	pc     *pageCache

	temp, mem int64 // in use now
	open      int   // sort files open now
}

func (b *build) statement(idx []int) {
	switch {
	case b.s.Engine == "myrocks":
		b.myrocks(idx)
	case parallelDDL(b.s.Version):
		b.parallel(idx)
	default:
		b.legacy(idx)
	}
}

func (b *build) failed() bool { return b.res.Failed }

// fail records the first failure; later ones are consequences of it.
func (b *build) fail(format string, args ...any) {
	if !b.res.Failed {
		b.res.Failed = true
		b.res.Reason = fmt.Sprintf(format, args...)
	}
}

// allocTemp claims n bytes of temp space; past TempSpaceLimit the write fails as the real
// pwrite would with ENOSPC (DB_TEMP_FILE_WRITE_FAIL, "Temporary file write failure").
func (b *build) allocTemp(n int64) bool {
	if b.s.TempSpaceLimit > 0 && b.temp+n > b.s.TempSpaceLimit {
		b.fail("temporary file write failure (ER_TEMP_FILE_WRITE_FAILURE): innodb_tmpdir full: "+
			"%s of sort files in use, %s more needed, limit %s", fmtBytes(b.temp), fmtBytes(n), fmtBytes(b.s.TempSpaceLimit))
		return false
	}
	b.temp += n
	b.res.TempBytesWritten += n
	b.res.TempPeakBytes = max(b.res.TempPeakBytes, b.temp)
	return true
}

func (b *build) freeTemp(n int64) { b.temp -= n }

// allocMem claims n bytes of build buffers; past MemoryLimit the allocation fails
// (DB_OUT_OF_MEMORY).
func (b *build) allocMem(n int64, what string) bool {
	if b.s.MemoryLimit > 0 && b.mem+n > b.s.MemoryLimit {
		b.fail("out of memory (DB_OUT_OF_MEMORY) allocating %s: %s of %s in use, %s more needed",
			what, fmtBytes(b.mem), fmtBytes(b.s.MemoryLimit), fmtBytes(n))
		return false
	}
	b.mem += n
	b.res.PeakMemory = max(b.res.PeakMemory, b.mem)
	return true
}

func (b *build) freeMem(n int64) { b.mem -= n }

// openFile opens n sort files; past MaxOpenFiles file creation fails (DB_IO_ERROR from
// Builder::create_file, DB_OUT_OF_RESOURCES from Merge_file_sort::sort).
func (b *build) openFile(n int) bool {
	if b.s.MaxOpenFiles > 0 && b.open+n > b.s.MaxOpenFiles {
		b.fail("cannot create temporary sort file (DB_OUT_OF_RESOURCES): %d open, limit %d", b.open, b.s.MaxOpenFiles)
		return false
	}
	b.open += n
	b.res.PeakOpenFiles = max(b.res.PeakOpenFiles, b.open)
	return true
}

func (b *build) closeFile(n int) { b.open -= n }

// cpu charges ns nanoseconds of CPU to p.
func (b *build) cpu(p *sim.Proc, ns float64) {
	if ns > 0 {
		b.env.Cores.Compute(p, sim.Time(math.Round(ns)))
	}
}

// io moves bytes on dev as the real code does: synchronous operations of opSize bytes one
// after another. One Do carries the bytes (queueing, bandwidth); the other ops' latencies are
// added as a wait, so a chunk is a handful of events however many operations it stands for.
func (b *build) io(p *sim.Proc, dev *sim.Device, lat sim.Time, op sim.Op, bytes, opSize int64) {
	if bytes <= 0 || dev == nil {
		return
	}
	dev.Do(p, op, bytes)
	if lat > 0 && opSize > 0 {
		if ops := ceilDiv(bytes, opSize); ops > 1 {
			p.Sleep(sim.Time(ops-1) * lat)
		}
	}
}

// phase appends a phase record and returns its position, so the caller can close it.
func (b *build) phase(name string, index int, start sim.Time) int {
	b.res.Phases = append(b.res.Phases, Phase{Name: b.prefix + name, Index: index, Start: start, End: start})
	return len(b.res.Phases) - 1
}

// passSpan widens index i's phase "merge_pass_<pass+1>" to cover [start, end]: the span of
// one merge pass over all of the index's sort files (the files of an 8.0.27+ build are merged
// concurrently, each pass of each file by one thread).
func (b *build) passSpan(i int, pass int64, start, end sim.Time) {
	name := b.prefix + fmt.Sprintf("merge_pass_%d", pass+1)
	for k := range b.res.Phases {
		if ph := &b.res.Phases[k]; ph.Name == name && ph.Index == i {
			ph.Start, ph.End = min(ph.Start, start), max(ph.End, end)
			return
		}
	}
	b.res.Phases = append(b.res.Phases, Phase{Name: name, Index: i, Start: start, End: end})
}

// chunks cuts total units of work into at most maxChunks steps of about b.s.ChunkBytes of
// data each (bytesPerUnit per unit); it returns the number of steps.
func (b *build) chunks(total, bytesPerUnit, maxChunks int64) int64 {
	if total <= 0 {
		return 0
	}
	n := ceilDiv(total*max(1, bytesPerUnit), b.s.ChunkBytes)
	return min(max(n, 1), maxChunks, total)
}

// part is the i-th of n near-equal parts of total (integer, parts sum to total).
func part(total, i, n int64) int64 { return total*(i+1)/n - total*i/n }

// group lets a proc wait for helper procs.
type group struct {
	n      int
	waiter *sim.Proc
}

func (g *group) add(n int) { g.n += n }

func (g *group) done() {
	g.n--
	if g.n == 0 && g.waiter != nil {
		w := g.waiter
		g.waiter = nil
		w.Wake(0)
	}
}

func (g *group) wait(p *sim.Proc) {
	if g.n > 0 {
		g.waiter = p
		p.Park()
	}
}

// writeBack writes new index pages to the data device while the load runs (aggregate mode):
// pages built beyond Env.DirtyLimitPages cannot stay dirty in the pool, so the page cleaners
// write them; the loader is throttled when more than maxInflight such writes are
// outstanding (free-page starvation pushes back on the thread creating pages).
type writeBack struct {
	b        *build
	p        *sim.Proc
	inflight int
	parked   bool
}

const maxInflight = 4

func (w *writeBack) add(pages int64) {
	b := w.b
	dirty := b.res.PagesBuilt - b.res.PagesWrittenBack
	excess := dirty - b.env.DirtyLimitPages
	if excess <= 0 || b.env.Data == nil {
		return
	}
	w.write(excess)
}

// write writes pages new pages to Data, throttling the loader past maxInflight writes.
func (w *writeBack) write(pages int64) {
	b := w.b
	if pages <= 0 || b.env.Data == nil {
		return
	}
	b.res.PagesWrittenBack += pages
	// Each page written back is one write submitted (page_write_cpu; 0 unless measured).
	b.cpu(w.p, float64(pages)*float64(b.env.Costs.PageWriteCPU))
	w.inflight++
	b.env.Data.Submit(sim.Write, pages*b.env.PageSize, w.complete)
	for w.inflight > maxInflight {
		w.parked = true
		w.p.Park()
	}
}

func (w *writeBack) complete() {
	w.inflight--
	if w.parked {
		w.parked = false
		w.p.Wake(0)
	}
}

// drain waits for the outstanding writes.
func (w *writeBack) drain() {
	for w.inflight > 0 {
		w.parked = true
		w.p.Park()
	}
}

// newPages creates pages of index i: through the pool, or counted and written back.
func (b *build) newPages(p *sim.Proc, wb *writeBack, i int, pages int64) {
	if pages <= 0 {
		return
	}
	b.res.PagesBuilt += pages
	if b.env.Pool != nil {
		// What the pool leaves to the build is written back in full: those pages would
		// not have stayed in the pool to the end of the load.
		rest := b.env.Pool.NewPages(p, i, pages)
		b.cpu(p, float64(rest)*float64(b.env.Costs.PageMiss))
		wb.write(rest)
		return
	}
	b.cpu(p, float64(pages)*float64(b.env.Costs.PageMiss))
	wb.add(pages)
}

// readLeaves reads n clustered-index leaves from leaf `from` on behalf of p: through the
// pool, and what the pool leaves (or all of them in aggregate mode) from Data as read-ahead
// extents.
func (b *build) readLeaves(p *sim.Proc, from, n int64) {
	if n <= 0 {
		return
	}
	if b.env.Pool != nil {
		n = b.env.Pool.ReadLeaves(p, from, n)
	}
	// Each page read still takes a frame (buf_page_init_for_read, I/O completion) and, as an
	// asynchronous read-ahead read, its submission and completion (page_read_cpu).
	b.cpu(p, float64(n)*float64(b.env.Costs.PageMiss+b.env.Costs.PageReadCPU))
	b.io(p, b.env.Data, b.env.DataOpLatency, sim.Read, n*b.env.PageSize, b.readAhead())
}

func fmtBytes(n int64) string {
	switch {
	case n >= gib:
		return fmt.Sprintf("%.1f GiB", float64(n)/float64(gib))
	case n >= mib:
		return fmt.Sprintf("%.1f MiB", float64(n)/float64(mib))
	case n >= kib:
		return fmt.Sprintf("%.1f KiB", float64(n)/float64(kib))
	}
	return fmt.Sprintf("%d B", n)
}
