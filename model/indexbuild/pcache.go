package indexbuild

import "github.com/ddlsim/ddlsim/sim"

// This file is the OS page cache between the build and its sort files.
//
// InnoDB creates its merge files with os_file_create_tmpfile → innobase_mysql_tmpfile →
// mysql_tmpfile in innodb_tmpdir: an ordinary buffered file, opened without O_DIRECT
// (ddl0ddl.cc file_create and row0merge.cc row_merge_file_create call os_file_set_nocache
// only when innodb_disable_sort_file_cache is ON; it is OFF by default). MyRocks'
// Rdb_index_merge uses mysql_tmpfile too. So a pwrite of a run copies it into the Linux page
// cache and returns; the kernel writes dirty pages back in the background; a later pread
// that finds the page resident is a memory copy.
//
// Model (per Build call, all statements of it):
//
//   - Capacity: Env.PageCacheBytes (PageCacheFor: memory − buffer pool − ServerReserve),
//     minus the build's own buffers while they are allocated (they are anonymous memory
//     taken from the same free memory).
//   - Residency: the cache is an LRU over insertions. A clock counts the bytes inserted so
//     far (every byte written, every byte read from the device on a miss). A byte of a sort
//     file is resident while fewer than capacity bytes have been inserted after it, or when
//     all live sort-file data fits. Each file remembers the clock at its first and last
//     append and its bytes are placed linearly in between (files are written sequentially),
//     so the resident part of any range is O(1) arithmetic. Dirty bytes are always resident.
//     Linux's two-list LRU treats write-once/read-once pages like this (they never leave the
//     inactive list, which then behaves as FIFO).
//   - Write-back: written bytes are dirty. Above dirty_background_ratio (10%) of the
//     dirtyable memory the flusher writes the oldest dirty data of the live files to the
//     temp device in ChunkBytes pieces, asynchronously; a writer whose write takes dirty data
//     above dirty_ratio (20%) waits until write-back brings it below (balance_dirty_pages).
//     Dirtyable memory is free memory plus the file cache (mm/page-writeback.c
//     global_dirtyable_memory; anonymous memory such as the buffer pool is not part of it),
//     which is the page-cache capacity here. Dirty data of a file deleted before write-back
//     reaches it is dropped, never written (truncate_inode_pages). Periodic write-back of
//     data older than dirty_expire_centisecs (30 s) is not modelled: it only adds background
//     writes that nobody waits for.
//   - CPU: every byte read or written through the cache costs Costs.PageCacheCopy per 4 KiB
//     (copy_from_user / copy_to_user), whether the read hit or missed.
//
// With PageCacheBytes == 0 every sort-file byte is written to and read from the temp device
// synchronously by the thread that needs it (O_DIRECT behaviour).

// ServerReserveBytes is the memory besides the buffer pool that mysqld and the OS keep and
// the page cache cannot use: mysqld's other allocations (dictionary and table caches,
// performance_schema's ~0.5 GiB at 8.0 defaults, log buffer, per-connection buffers), the
// kernel's page tables for a large pool (8 bytes per 4 KiB page: ~0.35 GiB per 180 GiB of
// pool without huge pages), slab caches and the allocator's watermark reserve
// (totalreserve_pages).
const ServerReserveBytes = 4 * gib

// PageCacheFor is the page cache sort files can use on a machine with memory bytes of RAM
// and a buffer pool of pool bytes: memory − pool − ServerReserveBytes, at least 0.
func PageCacheFor(memory, pool int64) int64 {
	return max(0, memory-pool-ServerReserveBytes)
}

// Linux's defaults (Documentation/admin-guide/sysctl/vm.rst): vm.dirty_background_ratio and
// vm.dirty_ratio, percent of dirtyable memory.
const (
	dirtyBackgroundRatio = 10
	dirtyRatio           = 20
)

// osPage is the unit Costs.PageCacheCopy is charged per.
const osPage = 4 * kib

// flushDepth is how many write-back chunks the flusher keeps in flight.
const flushDepth = 2

// tfile is the content of one sort file (a new object whenever a merge pass rewrites it).
type tfile struct {
	size    int64 // bytes written
	w0, w1  int64 // cache clock before the first and after the last append
	flushed int64 // leading bytes submitted for write-back
	cleaned int64 // leading bytes whose DONTNEED write-back has completed (clean pages)
	dropped int64 // bytes read and dropped from the cache (dontneed)
	dead    bool
}

// seg is a byte range of a sort file.
type seg struct {
	f      *tfile
	off, n int64
}

type pageCache struct {
	b *build
	// dontneed: every read and write of a sort file is followed by
	// posix_fadvise(POSIX_FADV_DONTNEED) (InnoDB's ddl::pread / ddl::pwrite and 8.0.18's
	// row_merge_read / row_merge_write): Linux starts write-back of the written range at once
	// (generic_fadvise → __filemap_fdatawrite_range, WB_SYNC_NONE) and drops clean pages of the
	// range; pages under write-back stay, clean once written, until reclaimed; pages just read
	// are dropped. So every byte written reaches the temp device, and data is read from the
	// cache only while it has not been reclaimed since it was written. MyRocks' merge files do
	// not fadvise: they keep the page cache's ordinary write-back (the rest of this file).
	dontneed  bool
	cap       int64 // Env.PageCacheBytes
	bg, limit int64 // write-back starts above bg; writers wait above limit
	clock     int64 // bytes inserted so far
	live      int64 // bytes of live sort-file content
	dirty     int64 // dirty bytes, including those under write-back
	files     []*tfile

	inflight      int
	inflightBytes int64
	slots         [flushDepth]flushSlot
	throttled     []*sim.Proc
}

// flushSlot is one write-back operation in flight; its completion callback is made once.
type flushSlot struct {
	n    int64
	busy bool
	done func()
}

func newPageCache(b *build, capacity int64) *pageCache {
	c := &pageCache{b: b, cap: capacity,
		bg: capacity * dirtyBackgroundRatio / 100, limit: capacity * dirtyRatio / 100}
	for i := range c.slots {
		sl := &c.slots[i]
		sl.done = func() {
			sl.busy = false
			c.inflight--
			c.inflightBytes -= sl.n
			c.dirty -= sl.n
			c.wakeThrottled()
			c.kick()
		}
	}
	return c
}

func (c *pageCache) on() bool { return c != nil && c.cap > 0 }

// effCap is the capacity left by the build's own buffers.
func (c *pageCache) effCap() int64 { return max(0, c.cap-c.b.mem) }

func (b *build) newFile() *tfile {
	f := &tfile{}
	if b.pc.on() {
		b.pc.files = append(b.pc.files, f)
	}
	return f
}

// copyNs is the CPU of moving n bytes between the page cache and user buffers.
func (b *build) copyNs(n int64) float64 {
	if !b.pc.on() || n <= 0 {
		return 0
	}
	return float64(n) / float64(osPage) * float64(b.env.Costs.PageCacheCopy)
}

// fileWrite appends the segments' bytes to their files (the caller has charged copyNs).
// Without a cache the bytes go to the temp device at once, in opSize operations; with one
// they become dirty page-cache data and p waits only if dirty data exceeds dirty_ratio.
func (b *build) fileWrite(p *sim.Proc, segs []seg, opSize int64) {
	var total int64
	for _, s := range segs {
		total += s.n
	}
	if total <= 0 {
		return
	}
	c := b.pc
	if !c.on() {
		for _, s := range segs {
			s.f.size += s.n
		}
		b.res.TempDeviceBytesWritten += total
		b.io(p, b.env.Temp, b.env.TempOpLatency, sim.Write, total, opSize)
		return
	}
	for _, s := range segs {
		if s.n <= 0 {
			continue
		}
		f := s.f
		if f.size == 0 {
			f.w0 = c.clock
		}
		c.clock += s.n
		f.size += s.n
		f.w1 = c.clock
		c.live += s.n
		c.dirty += s.n
		if c.dontneed {
			c.writeBack(f, s.n) // POSIX_FADV_DONTNEED after the pwrite
		}
	}
	c.kick()
	// Above dirty_ratio write-back is always in flight (kick keeps it going above the lower
	// background threshold), so a completion will wake p.
	for c.dirty > c.limit {
		c.throttled = append(c.throttled, p)
		p.Park()
	}
}

// fileRead reads the segments (the caller charges copyNs of their total): resident bytes
// are memory copies; the rest is read from the temp device in opSize operations.
func (b *build) fileRead(p *sim.Proc, segs []seg, opSize int64) {
	var total, miss int64
	for _, s := range segs {
		total += s.n
		if b.pc.on() {
			miss += s.n - b.pc.resident(s.f, s.off, s.n)
		}
	}
	if total <= 0 {
		return
	}
	b.res.TempBytesRead += total
	switch {
	case !b.pc.on():
		miss = total
	case b.pc.dontneed:
		// POSIX_FADV_DONTNEED after the pread: the range leaves the cache (hit or read in).
		for _, s := range segs {
			d := min(s.n, s.f.size-s.f.dropped)
			s.f.dropped += d
			b.pc.live -= d
		}
		b.res.PageCacheHitBytes += total - miss
	default:
		b.pc.clock += miss // pages read in are inserted at the head of the LRU
		b.res.PageCacheHitBytes += total - miss
	}
	b.res.TempDeviceBytesRead += miss
	b.io(p, b.env.Temp, b.env.TempOpLatency, sim.Read, miss, opSize)
}

// reread reads n more bytes of sort file f around [off, off+span): the tails of readers'
// buffers past their runs' ends (overRead), which the reader of the next run reads again.
// The first pread of them was followed by POSIX_FADV_DONTNEED (ddl::pread), which drops the
// clean pages and keeps those still dirty or under write-back (invalidate_mapping_pages):
// the share of the range whose write-back had completed comes from the temp device again,
// the rest is read from the cache. Without a page cache every read is a device read.
// The caller charges copyNs.
func (b *build) reread(p *sim.Proc, f *tfile, off, span, n, opSize int64) {
	if n <= 0 {
		return
	}
	b.res.TempBytesRead += n
	miss := n
	if b.pc.on() {
		miss = 0
		if b.pc.dontneed && span > 0 {
			clean := min(span, max(0, f.cleaned-off))
			miss = int64(float64(n) * float64(clean) / float64(span))
		}
	}
	b.res.PageCacheHitBytes += n - miss
	b.res.TempDeviceBytesRead += miss
	b.io(p, b.env.Temp, b.env.TempOpLatency, sim.Read, miss, opSize)
}

// fileDrop deletes a file's content: its dirty data not yet under write-back is discarded.
func (b *build) fileDrop(f *tfile) {
	if f == nil || f.dead {
		return
	}
	f.dead = true
	c := b.pc
	if !c.on() {
		return
	}
	c.live -= f.size - f.dropped
	c.dirty -= f.size - f.flushed
	f.flushed = f.size
	c.wakeThrottled()
}

// fileSync is fsync of one file: its dirty bytes are written by p, then the device syncs.
func (b *build) fileSync(p *sim.Proc, f *tfile) {
	c := b.pc
	if c.on() && f.size > f.flushed {
		n := f.size - f.flushed
		f.flushed = f.size
		b.res.TempDeviceBytesWritten += n
		b.io(p, b.env.Temp, 0, sim.Write, n, 0)
		c.dirty -= n
		c.wakeThrottled()
	}
	b.io(p, b.env.Temp, 0, sim.Sync, 0, 0)
}

// dropAll deletes every live file (end of the build).
func (c *pageCache) dropAll() {
	if !c.on() {
		return
	}
	for _, f := range c.files {
		c.b.fileDrop(f)
	}
	c.files = c.files[:0]
}

// resident is how many of the n bytes at off of f are in the cache.
func (c *pageCache) resident(f *tfile, off, n int64) int64 {
	if n <= 0 || f.size == 0 {
		return 0
	}
	cp := c.effCap()
	if c.live <= cp {
		return n
	}
	// Bytes from xs on were inserted less than cp bytes ago.
	t := c.clock - cp
	var xs int64
	switch {
	case f.w0 >= t:
		xs = 0
	case f.w1 <= t:
		xs = f.size
	default:
		xs = int64(float64(t-f.w0) / float64(f.w1-f.w0) * float64(f.size))
	}
	xs = min(xs, f.flushed) // dirty bytes are never evicted
	return min(n, max(0, off+n-max(off, xs)))
}

// writeBack submits the last n bytes written to f for write-back at once (DONTNEED): they reach
// the temp device even if the file is deleted before the write completes.
func (c *pageCache) writeBack(f *tfile, n int64) {
	f.flushed = f.size
	c.b.res.TempDeviceBytesWritten += n
	c.inflightBytes += n
	c.b.env.Temp.Submit(sim.Write, n, func() {
		f.cleaned += n
		c.inflightBytes -= n
		c.dirty -= n
		c.wakeThrottled()
	})
}

// kick starts write-back while dirty data is above the background threshold.
func (c *pageCache) kick() {
	for c.inflight < flushDepth && c.dirty > c.bg && c.dirty > c.inflightBytes {
		// The oldest dirty data first (writeback walks inodes by dirtied time).
		var f *tfile
		var oldest float64
		live := c.files[:0]
		for _, g := range c.files {
			if g.dead {
				continue
			}
			live = append(live, g)
			if g.flushed >= g.size {
				continue
			}
			s := float64(g.w0) + float64(g.w1-g.w0)*float64(g.flushed)/float64(g.size)
			if f == nil || s < oldest {
				f, oldest = g, s
			}
		}
		for i := len(live); i < len(c.files); i++ {
			c.files[i] = nil
		}
		c.files = live
		if f == nil {
			return
		}
		n := min(f.size-f.flushed, c.b.s.ChunkBytes)
		f.flushed += n
		c.inflight++
		c.inflightBytes += n
		c.b.res.TempDeviceBytesWritten += n
		for i := range c.slots {
			if sl := &c.slots[i]; !sl.busy {
				sl.busy, sl.n = true, n
				c.b.env.Temp.Submit(sim.Write, n, sl.done)
				break
			}
		}
	}
}

// wakeThrottled lets writers go once dirty data is back under dirty_ratio.
func (c *pageCache) wakeThrottled() {
	if c.dirty > c.limit || len(c.throttled) == 0 {
		return
	}
	ws := c.throttled
	c.throttled = nil
	for _, w := range ws {
		w.Wake(0)
	}
}
