// Command cpucost measures the CPU cost of the operations a buffer pool pays per page, on
// this machine (lab/probe/run.sh runs it and records the output):
//
//	pread-cached   one 16 KiB pread of a page that is in the OS page cache: syscall + page-cache
//	               lookup + copy to the user buffer (wall time per call, single thread)
//	pwrite-cached  one 16 KiB buffered pwrite: syscall + copy into the page cache + dirtying
//	pread-direct   one 16 KiB O_DIRECT pread: the CPU time (user+system from getrusage) per
//	               read, i.e. syscall + block layer + completion, without the device wait
//	pwrite-direct  the same for an O_DIRECT pwrite
//	ctxswitch      a context switch: two OS threads ping-pong one byte over two pipes; the
//	               round trip is two switches (+ two reads, two writes). Run pinned to one CPU
//	               (taskset -c 0) it is the switch cost; unpinned, the cross-CPU wake-up
//
// Usage: cpucost [-dir DIR] [-file-mb N] [-seconds S] TEST...
// Output: one line per test, "name<TAB>value<TAB>unit<TAB>detail".
package main

import (
	"flag"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"runtime"
	"sort"
	"syscall"
	"time"
	"unsafe"
)

const page = 16 << 10

func main() {
	dir := flag.String("dir", os.TempDir(), "directory for the test file (the lab's filesystem)")
	fileMB := flag.Int("file-mb", 256, "test file size in MiB (cached tests keep it in the page cache)")
	secs := flag.Float64("seconds", 3, "duration of each repetition")
	reps := flag.Int("reps", 5, "repetitions; the median is reported")
	flag.Parse()
	if flag.NArg() == 0 {
		fmt.Fprintln(os.Stderr, "usage: cpucost [flags] pread-cached|pwrite-cached|pread-direct|pwrite-direct|ctxswitch ...")
		os.Exit(2)
	}
	path := filepath.Join(*dir, fmt.Sprintf("cpucost-%d.dat", os.Getpid()))
	defer os.Remove(path)
	size := int64(*fileMB) << 20
	d := time.Duration(*secs * float64(time.Second))
	for _, t := range flag.Args() {
		var vals []float64
		var unit, detail string
		for r := 0; r < *reps; r++ {
			var v float64
			var err error
			switch t {
			case "pread-cached":
				v, err = cachedIO(path, size, d, false)
				unit, detail = "ns/op", "wall time per 16 KiB pread of a cached page, 1 thread"
			case "pwrite-cached":
				v, err = cachedIO(path, size, d, true)
				unit, detail = "ns/op", "wall time per 16 KiB buffered pwrite into the page cache, 1 thread"
			case "pread-direct":
				v, err = directIO(path, size, d, false)
				unit, detail = "ns/op", "CPU time (user+sys) per 16 KiB O_DIRECT pread, QD1"
			case "pwrite-direct":
				v, err = directIO(path, size, d, true)
				unit, detail = "ns/op", "CPU time (user+sys) per 16 KiB O_DIRECT pwrite, QD1"
			case "ctxswitch":
				v, err = pingPong(d)
				unit, detail = "ns/switch", "half a pipe ping-pong round trip between two OS threads"
			default:
				err = fmt.Errorf("unknown test %q", t)
			}
			if err != nil {
				fmt.Fprintln(os.Stderr, "cpucost:", t, err)
				os.Exit(1)
			}
			vals = append(vals, v)
		}
		sort.Float64s(vals)
		fmt.Printf("%s\t%.0f\t%s\t%s; median of %d x %.1f s (min %.0f, max %.0f)\n",
			t, vals[len(vals)/2], unit, detail, len(vals), *secs, vals[0], vals[len(vals)-1])
	}
}

// ensureFile creates path with size bytes of non-zero data (once).
func ensureFile(path string, size int64) error {
	if st, err := os.Stat(path); err == nil && st.Size() == size {
		return nil
	}
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	buf := make([]byte, 1<<20)
	for i := range buf {
		buf[i] = byte(i*7 + 1)
	}
	for off := int64(0); off < size; off += int64(len(buf)) {
		if _, err := f.Write(buf); err != nil {
			f.Close()
			return err
		}
	}
	if err := f.Sync(); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}

func cachedIO(path string, size int64, d time.Duration, write bool) (float64, error) {
	if err := ensureFile(path, size); err != nil {
		return 0, err
	}
	f, err := os.OpenFile(path, os.O_RDWR, 0)
	if err != nil {
		return 0, err
	}
	defer f.Close()
	fd := int(f.Fd())
	buf := make([]byte, page)
	pages := size / page
	// bring the file into the page cache
	for p := int64(0); p < pages; p++ {
		if _, err := syscall.Pread(fd, buf, p*page); err != nil {
			return 0, err
		}
	}
	rng := rand.New(rand.NewPCG(1, 2))
	n := 0
	start := time.Now()
	for time.Since(start) < d {
		for i := 0; i < 256; i++ {
			off := rng.Int64N(pages) * page
			if write {
				buf[0] = byte(n)
				_, err = syscall.Pwrite(fd, buf, off)
			} else {
				_, err = syscall.Pread(fd, buf, off)
			}
			if err != nil {
				return 0, err
			}
			n++
		}
	}
	return float64(time.Since(start).Nanoseconds()) / float64(n), nil
}

func cpuTime() time.Duration {
	var ru syscall.Rusage
	_ = syscall.Getrusage(syscall.RUSAGE_THREAD, &ru)
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

func directIO(path string, size int64, d time.Duration, write bool) (float64, error) {
	if err := ensureFile(path, size); err != nil {
		return 0, err
	}
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	fd, err := syscall.Open(path, syscall.O_RDWR|syscall.O_DIRECT, 0)
	if err != nil {
		return 0, err
	}
	defer syscall.Close(fd)
	// an aligned buffer: O_DIRECT needs the logical block size alignment
	raw := make([]byte, page+4096)
	a := int((4096 - uintptr(unsafe.Pointer(&raw[0]))%4096) % 4096)
	buf := raw[a : a+page]
	pages := size / page
	rng := rand.New(rand.NewPCG(3, 4))
	n := 0
	c0 := cpuTime()
	start := time.Now()
	for time.Since(start) < d {
		off := rng.Int64N(pages) * page
		if write {
			_, err = syscall.Pwrite(fd, buf, off)
		} else {
			_, err = syscall.Pread(fd, buf, off)
		}
		if err != nil {
			return 0, err
		}
		n++
	}
	return float64((cpuTime() - c0).Nanoseconds()) / float64(n), nil
}

func pingPong(d time.Duration) (float64, error) {
	var ab, ba [2]int
	if err := syscall.Pipe(ab[:]); err != nil {
		return 0, err
	}
	if err := syscall.Pipe(ba[:]); err != nil {
		return 0, err
	}
	defer func() {
		for _, fd := range []int{ab[0], ab[1], ba[0], ba[1]} {
			syscall.Close(fd)
		}
	}()
	done := make(chan error, 1)
	go func() {
		runtime.LockOSThread()
		b := make([]byte, 1)
		for {
			if _, err := syscall.Read(ab[0], b); err != nil {
				done <- err
				return
			}
			if b[0] == 0 {
				done <- nil
				return
			}
			if _, err := syscall.Write(ba[1], b); err != nil {
				done <- err
				return
			}
		}
	}()
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	b := []byte{1}
	n := 0
	start := time.Now()
	for time.Since(start) < d {
		for i := 0; i < 1000; i++ {
			if _, err := syscall.Write(ab[1], b); err != nil {
				return 0, err
			}
			if _, err := syscall.Read(ba[0], b); err != nil {
				return 0, err
			}
			n++
		}
	}
	el := time.Since(start)
	b[0] = 0
	if _, err := syscall.Write(ab[1], b); err != nil {
		return 0, err
	}
	if err := <-done; err != nil {
		return 0, err
	}
	return float64(el.Nanoseconds()) / float64(2*n), nil
}
