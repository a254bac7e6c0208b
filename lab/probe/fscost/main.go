// Command fscost measures, on this machine's filesystem, the file-system calls that MariaDB
// 10.11 makes for a tablespace's life: create, extend, unlink, rename, fsync (issue 22: DROP and
// TRUNCATE's fixed work "measured by micro-benchmarks on this machine's filesystem, never
// fitted on the DDL runs"). Each call is timed alone, wall time (monotonic clock) and the
// calling thread's CPU time (clock_gettime CLOCK_THREAD_CPUTIME_ID), with the goroutine locked
// to its OS thread.
//
// Tests (docs/mariadb-write-path.md §5 says which InnoDB routine makes each call):
//
//	unlink        a closed N-MiB tablespace file: unlink(2) (the inode's blocks are freed in
//	              the call), then fsync(2) of the directory (the journal commit that carries the
//	              frees and, on a `discard` mount, their discards)
//	unlink-open   MariaDB's order (fil_space_t::drop, then os_file_close after the DDL's
//	              commit): unlink(2) of the open file (the name only), close(2) (the blocks are
//	              freed here: delete-on-close), fsync of the directory
//	create        fil_ibd_create: open(O_CREAT|O_EXCL|O_RDWR|O_DIRECT) and fallocate(2) of the
//	              initial 4 pages (64 KiB), close; then fsync of the directory
//	extend-falloc fil_space_extend_must_retry: fallocate(2) of the next step (1 MiB below
//	              32 MiB, 4 MiB from there: fsp_get_pages_to_extend_ibd) + fsync(2), on a file of
//	              N MiB
//	extend-write  the write-zeros fallback of os_file_set_size (and MySQL 8.0's
//	              innodb_extend_and_initialize): the step written as 1 MiB O_DIRECT zero blocks
//	              + fsync(2)
//	fsync-new     a new 64 KiB file: fsync(2) of the file, then of its directory
//	rename        rename(2) of a tablespace file (FILE_RENAME's os_file_rename), then fsync of
//	              the directory
//
// The N-MiB files of unlink, unlink-open and extend-* are built as InnoDB builds a tablespace:
// created with 64 KiB, extended by fallocate(2) in InnoDB's steps with an fsync after each,
// every byte written with O_DIRECT (so the extents are written, not unwritten), fsynced, and
// the directory fsynced, before the timed call. With -fill=false the extents stay unwritten
// (a table whose pages never left the buffer pool); the test's name gets "-unwritten".
//
// Usage: fscost [-dir DIR] [-sizes 1,4,...] [-reps N] [-unit-kib K] TEST...
//
//	fscost -summary RAW.tsv   medians per (test, size, call) and the fixed + per-MiB fit
//
// Output (measure mode): one row per timed call,
// "test<TAB>size_mib<TAB>rep<TAB>call<TAB>wall_us<TAB>cpu_us<TAB>extents".
package main

import (
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"syscall"
	"time"
	"unsafe"
)

const (
	kib        = 1 << 10
	mib        = 1 << 20
	initial    = 64 * kib // FIL_IBD_FILE_INITIAL_SIZE (4 pages of 16 KiB)
	smallStep  = 1 * mib  // one extent below the threshold
	largeStep  = 4 * mib  // FSP_FREE_ADD extents
	stepThresh = 32 * mib // 32 extents of 64 pages
)

func main() {
	dir := flag.String("dir", "/var/tmp", "directory on the lab's filesystem (the datadir's)")
	sizes := flag.String("sizes", "1,4,16,64,256,1024,2048,4096", "file sizes in MiB (unlink, unlink-open, extend-*)")
	reps := flag.Int("reps", 5, "repetitions per size")
	unitKiB := flag.Int("unit-kib", 1024, "O_DIRECT write size used to fill the files, KiB")
	summary := flag.String("summary", "", "summarize a raw output file instead of measuring")
	fill := flag.Bool("fill", true, "write every byte of the N-MiB files with O_DIRECT (false: fallocate only, unwritten extents, as a table whose pages were never flushed)")
	flag.Parse()
	if *summary != "" {
		if err := summarize(*summary, os.Stdout); err != nil {
			fmt.Fprintln(os.Stderr, "fscost:", err)
			os.Exit(1)
		}
		return
	}
	if flag.NArg() == 0 {
		fmt.Fprintln(os.Stderr, "usage: fscost [flags] unlink|unlink-open|create|extend-falloc|extend-write|fsync-new|rename ...")
		os.Exit(2)
	}
	var szs []int64
	for _, f := range strings.Split(*sizes, ",") {
		n, err := strconv.ParseInt(strings.TrimSpace(f), 10, 64)
		if err != nil || n <= 0 {
			fmt.Fprintf(os.Stderr, "fscost: -sizes: %q is not a positive number of MiB\n", f)
			os.Exit(2)
		}
		szs = append(szs, n)
	}
	runtime.LockOSThread()
	work, err := os.MkdirTemp(*dir, "fscost-")
	if err != nil {
		fmt.Fprintln(os.Stderr, "fscost:", err)
		os.Exit(1)
	}
	defer os.RemoveAll(work)
	p := &prober{dir: work, unit: int64(*unitKiB) * kib, nofill: !*fill}
	for _, t := range flag.Args() {
		if err := p.run(t, szs, *reps); err != nil {
			fmt.Fprintln(os.Stderr, "fscost:", t, err)
			os.RemoveAll(work)
			os.Exit(1)
		}
	}
}

type prober struct {
	dir    string
	unit   int64
	nofill bool   // build leaves the fallocated extents unwritten
	buf    []byte // aligned, unit bytes of non-zero data
	zero   []byte // aligned, 1 MiB of zeros
	seq    int
}

// sample is one timed call.
type sample struct{ wall, cpu time.Duration }

// cpuNow is the calling thread's CPU time, clock_gettime(CLOCK_THREAD_CPUTIME_ID): the
// scheduler's exact runtime (getrusage's per-thread split is tick-sampled and too coarse for
// calls of tens of microseconds). Work the kernel does in its own threads on the call's
// behalf (the journal commit in jbd2, discards, block-layer completions) is not in it.
func cpuNow() time.Duration {
	const clockThreadCPUTimeID = 3
	var ts syscall.Timespec
	syscall.Syscall(syscall.SYS_CLOCK_GETTIME, clockThreadCPUTimeID, uintptr(unsafe.Pointer(&ts)), 0)
	return time.Duration(ts.Nano())
}

// timed runs f and returns its wall and thread CPU time.
func timed(f func() error) (sample, error) {
	c0, w0 := cpuNow(), time.Now()
	err := f()
	return sample{time.Since(w0), cpuNow() - c0}, err
}

func (p *prober) emit(test string, size int64, rep int, call string, s sample, extents int) {
	if p.nofill && size > 0 {
		test += "-unwritten"
	}
	fmt.Printf("%s\t%d\t%d\t%s\t%.1f\t%.1f\t%d\n", test, size, rep, call,
		float64(s.wall.Nanoseconds())/1e3, float64(s.cpu.Nanoseconds())/1e3, extents)
}

func (p *prober) name() string {
	p.seq++
	return filepath.Join(p.dir, fmt.Sprintf("t%d.ibd", p.seq))
}

func (p *prober) run(test string, sizes []int64, reps int) error {
	switch test {
	case "unlink", "unlink-open":
		for _, sz := range sizes {
			for r := 0; r < reps; r++ {
				if err := p.unlink(test, sz, r); err != nil {
					return err
				}
			}
		}
	case "extend-falloc", "extend-write":
		for _, sz := range sizes {
			if err := p.extend(test, sz, reps); err != nil {
				return err
			}
		}
	case "create", "fsync-new", "rename":
		for r := 0; r < reps*4; r++ {
			if err := p.small(test, r); err != nil {
				return err
			}
		}
	default:
		return fmt.Errorf("unknown test")
	}
	return nil
}

// unlink builds an N-MiB tablespace file and times its removal.
func (p *prober) unlink(test string, sizeMiB int64, rep int) error {
	path := p.name()
	fd, err := p.build(path, sizeMiB*mib)
	if err != nil {
		return err
	}
	ext := extents(fd)
	if test == "unlink" {
		if err := syscall.Close(fd); err != nil {
			return err
		}
		if err := p.syncDir(); err != nil {
			return err
		}
		s, err := timed(func() error { return syscall.Unlink(path) })
		if err != nil {
			return err
		}
		p.emit(test, sizeMiB, rep, "unlink", s, ext)
	} else {
		s, err := timed(func() error { return syscall.Unlink(path) })
		if err != nil {
			return err
		}
		p.emit(test, sizeMiB, rep, "unlink", s, ext)
		s, err = timed(func() error { return syscall.Close(fd) })
		if err != nil {
			return err
		}
		p.emit(test, sizeMiB, rep, "close", s, ext)
	}
	s, err := timed(p.syncDir)
	if err != nil {
		return err
	}
	p.emit(test, sizeMiB, rep, "dirsync", s, ext)
	return nil
}

// extend builds an N-MiB file and times reps extensions by InnoDB's step at that size.
func (p *prober) extend(test string, sizeMiB int64, reps int) error {
	path := p.name()
	fd, err := p.build(path, sizeMiB*mib)
	if err != nil {
		return err
	}
	defer func() {
		syscall.Close(fd)
		os.Remove(path)
	}()
	size := sizeMiB * mib
	for r := 0; r < reps; r++ {
		step := nextStep(size)
		var s sample
		if test == "extend-falloc" {
			s, err = timed(func() error {
				if err := syscall.Fallocate(fd, 0, size, step); err != nil {
					return err
				}
				return syscall.Fsync(fd)
			})
		} else {
			s, err = timed(func() error { return p.writeZeros(fd, size, step) })
		}
		if err != nil {
			return err
		}
		size += step
		p.emit(test, sizeMiB, r, fmt.Sprintf("extend+fsync %d MiB", step/mib), s, extents(fd))
	}
	return nil
}

// small times the per-file calls that do not depend on the file's size.
func (p *prober) small(test string, rep int) error {
	path := p.name()
	switch test {
	case "create":
		var fd int
		s, err := timed(func() error {
			var err error
			fd, err = syscall.Open(path, syscall.O_CREAT|syscall.O_EXCL|syscall.O_RDWR|syscall.O_DIRECT, 0o660)
			if err != nil {
				return err
			}
			if err := syscall.Fallocate(fd, 0, 0, initial); err != nil {
				return err
			}
			return syscall.Close(fd)
		})
		if err != nil {
			return err
		}
		p.emit(test, 0, rep, "create+fallocate 64 KiB", s, 0)
	case "fsync-new":
		fd, err := syscall.Open(path, syscall.O_CREAT|syscall.O_EXCL|syscall.O_RDWR|syscall.O_DIRECT, 0o660)
		if err != nil {
			return err
		}
		if err := p.fill(fd, 0, initial); err != nil {
			return err
		}
		s, err := timed(func() error { return syscall.Fsync(fd) })
		if err != nil {
			return err
		}
		p.emit(test, 0, rep, "fsync file", s, 0)
		syscall.Close(fd)
	case "rename":
		if err := os.WriteFile(path, []byte("x"), 0o660); err != nil {
			return err
		}
		if err := p.syncDir(); err != nil {
			return err
		}
		to := path + ".renamed"
		s, err := timed(func() error { return syscall.Rename(path, to) })
		if err != nil {
			return err
		}
		p.emit(test, 0, rep, "rename", s, 0)
		path = to
	}
	s, err := timed(p.syncDir)
	if err != nil {
		return err
	}
	p.emit(test, 0, rep, "dirsync", s, 0)
	return os.Remove(path)
}

// nextStep is fsp_get_pages_to_extend_ibd for 16 KiB pages: one extent (1 MiB) below
// 32 MiB, FSP_FREE_ADD (4) extents from there.
func nextStep(size int64) int64 {
	if size < stepThresh {
		return smallStep
	}
	return largeStep
}

// build creates path as InnoDB grows a tablespace to size bytes: 64 KiB at creation, then
// fallocate by nextStep with an fsync after each, every byte written with O_DIRECT, a final
// fsync of the file and of the directory. It returns the open descriptor.
func (p *prober) build(path string, size int64) (int, error) {
	fd, err := syscall.Open(path, syscall.O_CREAT|syscall.O_EXCL|syscall.O_RDWR|syscall.O_DIRECT, 0o660)
	if err != nil {
		return -1, err
	}
	have := int64(0)
	for have < size {
		step := int64(initial)
		if have > 0 {
			step = min(nextStep(have), size-have)
		}
		if err := syscall.Fallocate(fd, 0, have, step); err != nil {
			return -1, err
		}
		if err := syscall.Fsync(fd); err != nil {
			return -1, err
		}
		have += step
	}
	if !p.nofill {
		if err := p.fill(fd, 0, size); err != nil {
			return -1, err
		}
		if err := syscall.Fsync(fd); err != nil {
			return -1, err
		}
	}
	return fd, p.syncDir()
}

// fill writes [off, off+n) with O_DIRECT writes of p.unit bytes.
func (p *prober) fill(fd int, off, n int64) error {
	if p.buf == nil {
		p.buf = aligned(int(p.unit))
		for i := range p.buf {
			p.buf[i] = byte(i*7 + 1)
		}
	}
	for end := off + n; off < end; {
		k := min(p.unit, end-off)
		if _, err := syscall.Pwrite(fd, p.buf[:k], off); err != nil {
			return err
		}
		off += k
	}
	return nil
}

// writeZeros extends the file by n bytes of zeros written in 1 MiB O_DIRECT blocks, then fsyncs.
func (p *prober) writeZeros(fd int, off, n int64) error {
	if p.zero == nil {
		p.zero = aligned(mib)
	}
	for end := off + n; off < end; {
		k := min(int64(mib), end-off)
		if _, err := syscall.Pwrite(fd, p.zero[:k], off); err != nil {
			return err
		}
		off += k
	}
	return syscall.Fsync(fd)
}

func (p *prober) syncDir() error {
	d, err := syscall.Open(p.dir, syscall.O_RDONLY|syscall.O_DIRECTORY, 0)
	if err != nil {
		return err
	}
	defer syscall.Close(d)
	return syscall.Fsync(d)
}

// aligned returns n bytes aligned to 4096 (O_DIRECT's requirement).
func aligned(n int) []byte {
	raw := make([]byte, n+4096)
	a := int((4096 - uintptr(unsafe.Pointer(&raw[0]))%4096) % 4096)
	return raw[a : a+n]
}

// extents is the file's extent count from FS_IOC_FIEMAP (fm_extent_count = 0 asks for the
// count only); -1 when the ioctl fails.
func extents(fd int) int {
	var fm struct {
		start, length                uint64
		flags, mapped, count, reserv uint32
	}
	fm.length = ^uint64(0)
	const fsIocFiemap = 0xC020660B
	if _, _, e := syscall.Syscall(syscall.SYS_IOCTL, uintptr(fd), fsIocFiemap, uintptr(unsafe.Pointer(&fm))); e != 0 {
		return -1
	}
	return int(fm.mapped)
}
