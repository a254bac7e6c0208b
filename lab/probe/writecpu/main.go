// Command writecpu measures the CPU that writing costs on this machine, as the page cleaner and
// the redo log writer write (docs/cpu-model.md "The CPU of writing"):
//
//	pwrite-qd1        a 16 KiB O_DIRECT pwrite at a random page offset, synchronous (a
//	                  single-page flush, or any write whose caller waits)
//	aio-qdN           16 KiB O_DIRECT random writes through Linux native AIO, one io_submit per
//	                  page and completions reaped with io_getevents while N are in flight (the
//	                  page cleaner's batch: MariaDB 10.11's tpool submits each page write alone,
//	                  through io_uring or libaio, up to the batch size in flight)
//	seqwrite-S        sequential O_DIRECT writes of S bytes, no sync (the doublewrite batch's
//	                  one write; the redo writes without their sync)
//	fdatasync-S       sequential O_DIRECT writes of S bytes, each followed by fdatasync (the
//	                  redo log at innodb_flush_log_at_trx_commit=1: log_write_up_to writes the
//	                  buffer, then syncs the file; innodb_log_file_buffering=OFF)
//	fsync-S           the same with fsync
//
// For each: the process's user and system CPU per operation (getrusage RUSAGE_SELF: the
// syscall, the block layer's submission, the completion work the kernel charges to the
// process), and the whole machine's busy CPU per operation from /proc/stat (all CPUs: also
// interrupts, softirqs and kernel threads that serve the I/O; on a quiet machine, under
// cpu-exclusive, an upper bound). Medians of -reps repetitions of -seconds each.
//
// Usage: writecpu [-dir DIR] [-file-mb N] [-seconds S] [-reps R] TEST...   (TEST: all, or names)
// Output: TSV, one row per test.
package main

import (
	"flag"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"syscall"
	"time"
)

const page = 16 << 10

type result struct {
	ops                      int
	wall, user, sys, machine time.Duration
}

type test struct {
	name string
	size int // bytes per write
	qd   int
	sync string // "", "fdatasync", "fsync"
	seq  bool
	aio  bool
}

func tests() []test {
	t := []test{{name: "pwrite-qd1", size: page, qd: 1}}
	for _, qd := range []int{1, 8, 32, 128} {
		t = append(t, test{name: "aio-qd" + strconv.Itoa(qd), size: page, qd: qd, aio: true})
	}
	for _, s := range []int{4 << 10, 16 << 10, 64 << 10, 256 << 10, 1 << 20} {
		t = append(t, test{name: "seqwrite-" + sizeName(s), size: s, qd: 1, seq: true})
	}
	for _, s := range []int{4 << 10, 16 << 10, 64 << 10, 256 << 10} {
		t = append(t, test{name: "fdatasync-" + sizeName(s), size: s, qd: 1, seq: true, sync: "fdatasync"})
	}
	t = append(t, test{name: "fsync-4k", size: 4 << 10, qd: 1, seq: true, sync: "fsync"})
	return t
}

func sizeName(s int) string {
	if s >= 1<<20 {
		return strconv.Itoa(s>>20) + "m"
	}
	return strconv.Itoa(s>>10) + "k"
}

func main() {
	dir := flag.String("dir", os.TempDir(), "directory for the test file (the lab's filesystem)")
	fileMB := flag.Int("file-mb", 1024, "test file size in MiB")
	secs := flag.Float64("seconds", 3, "duration of each repetition")
	reps := flag.Int("reps", 5, "repetitions; the median is reported")
	flag.Parse()
	if flag.NArg() == 0 {
		fmt.Fprintln(os.Stderr, "usage: writecpu [flags] all|TEST...")
		os.Exit(2)
	}
	var run []test
	for _, t := range tests() {
		for _, a := range flag.Args() {
			if a == "all" || a == t.name {
				run = append(run, t)
			}
		}
	}
	if len(run) == 0 {
		fmt.Fprintln(os.Stderr, "writecpu: no such test")
		os.Exit(2)
	}
	path := filepath.Join(*dir, fmt.Sprintf("writecpu-%d.dat", os.Getpid()))
	size := int64(*fileMB) << 20
	if err := layout(path, size); err != nil {
		fail(err)
	}
	defer os.Remove(path)
	d := time.Duration(*secs * float64(time.Second))
	header(os.Args, *reps, *secs, *fileMB)
	for _, t := range run {
		var rs []result
		for r := 0; r < *reps; r++ {
			res, err := measure(path, size, t, d)
			if err != nil {
				fail(fmt.Errorf("%s: %w", t.name, err))
			}
			rs = append(rs, res)
		}
		printRow(t, rs)
	}
}

func fail(err error) {
	fmt.Fprintln(os.Stderr, "writecpu:", err)
	os.Exit(1)
}

// layout writes the file once, so that the measured writes overwrite allocated, written
// blocks (as InnoDB's do), not unwritten extents.
func layout(path string, size int64) error {
	f, err := os.OpenFile(path, os.O_CREATE|os.O_WRONLY|os.O_TRUNC|syscall.O_DIRECT, 0o600)
	if err != nil {
		return err
	}
	defer f.Close()
	buf, err := alignedBuf(1 << 20)
	if err != nil {
		return err
	}
	fillBuf(buf)
	for off := int64(0); off < size; off += int64(len(buf)) {
		if _, err := f.WriteAt(buf, off); err != nil {
			return err
		}
	}
	return f.Sync()
}

func alignedBuf(n int) ([]byte, error) {
	return syscall.Mmap(-1, 0, n, syscall.PROT_READ|syscall.PROT_WRITE, syscall.MAP_PRIVATE|syscall.MAP_ANONYMOUS)
}

func fillBuf(b []byte) {
	r := rand.New(rand.NewPCG(1, 2))
	for i := range b {
		b[i] = byte(r.Uint32())
	}
}

func measure(path string, size int64, t test, d time.Duration) (result, error) {
	f, err := os.OpenFile(path, os.O_WRONLY|syscall.O_DIRECT, 0)
	if err != nil {
		return result{}, err
	}
	defer f.Close()
	buf, err := alignedBuf(t.qd * t.size)
	if err != nil {
		return result{}, err
	}
	defer syscall.Munmap(buf)
	fillBuf(buf)
	r := rand.New(rand.NewPCG(uint64(t.size), uint64(t.qd)))
	u0, s0 := rusage()
	m0 := machineBusy()
	start := time.Now()
	var ops int
	if t.aio {
		ops, err = aioWrites(int(f.Fd()), buf, t, size, d, r)
	} else {
		ops, err = syncWrites(f, buf, t, size, d, r)
	}
	if err != nil {
		return result{}, err
	}
	wall := time.Since(start)
	u1, s1 := rusage()
	m1 := machineBusy()
	return result{ops: ops, wall: wall, user: u1 - u0, sys: s1 - s0, machine: m1 - m0}, nil
}

func syncWrites(f *os.File, buf []byte, t test, size int64, d time.Duration, r *rand.Rand) (int, error) {
	b := buf[:t.size]
	var off int64
	end := time.Now().Add(d)
	ops := 0
	for ; ops%64 != 0 || time.Now().Before(end); ops++ {
		if t.seq {
			if off+int64(t.size) > size {
				off = 0
			}
		} else {
			off = r.Int64N(size/page) * page
		}
		if _, err := f.WriteAt(b, off); err != nil {
			return ops, err
		}
		off += int64(t.size)
		var err error
		switch t.sync {
		case "fdatasync":
			err = syscall.Fdatasync(int(f.Fd()))
		case "fsync":
			err = f.Sync()
		}
		if err != nil {
			return ops, err
		}
	}
	return ops, nil
}

func rusage() (user, sys time.Duration) {
	var ru syscall.Rusage
	_ = syscall.Getrusage(syscall.RUSAGE_SELF, &ru)
	return time.Duration(ru.Utime.Nano()), time.Duration(ru.Stime.Nano())
}

// machineBusy is all CPUs' non-idle time since boot (/proc/stat "cpu": user, nice, system,
// irq, softirq, steal; not idle, iowait), in USER_HZ ticks converted at 100 Hz.
func machineBusy() time.Duration {
	b, err := os.ReadFile("/proc/stat")
	if err != nil {
		return 0
	}
	line := strings.SplitN(string(b), "\n", 2)[0]
	f := strings.Fields(line)
	var busy int64
	for _, idx := range []int{1, 2, 3, 6, 7, 8} {
		if idx < len(f) {
			v, _ := strconv.ParseInt(f[idx], 10, 64)
			busy += v
		}
	}
	return time.Duration(busy) * 10 * time.Millisecond
}

func printRow(t test, rs []result) {
	per := func(x time.Duration, n int) float64 { return float64(x.Nanoseconds()) / float64(n) }
	sort.Slice(rs, func(i, j int) bool {
		return per(rs[i].user+rs[i].sys, rs[i].ops) < per(rs[j].user+rs[j].sys, rs[j].ops)
	})
	m := rs[len(rs)/2]
	lo, hi := rs[0], rs[len(rs)-1]
	fmt.Printf("%s\t%d\t%d\t%.0f\t%.1f\t%.0f\t%.0f\t%.0f\t%.0f\t%.0f\t%.0f\n", t.name, t.size, t.qd,
		float64(m.ops)/m.wall.Seconds(), per(m.wall, m.ops)/1e3, per(m.user, m.ops), per(m.sys, m.ops),
		per(m.user+m.sys, m.ops), per(m.machine, m.ops), per(lo.user+lo.sys, lo.ops), per(hi.user+hi.sys, hi.ops))
}

// header prints how the rows were made, as '#' lines, then the column names.
func header(args []string, reps int, secs float64, fileMB int) {
	rel, _ := os.ReadFile("/proc/sys/kernel/osrelease")
	fmt.Printf("# %s (lab/probe/writecpu), %s, kernel %s\n", strings.Join(args, " "),
		time.Now().UTC().Format("2006-01-02 15:04 MST"), strings.TrimSpace(string(rel)))
	fmt.Printf("# O_DIRECT writes to a %d MiB file written once beforehand; each row the median (by cpu_ns) of %d runs of %.1f s.\n", fileMB, reps, secs)
	fmt.Println("# bytes, qd: write size and writes in flight; ops_per_s, wall_us: throughput and wall time per operation;")
	fmt.Println("# user_ns, sys_ns, cpu_ns: this process's CPU per operation (getrusage RUSAGE_SELF);")
	fmt.Println("# machine_ns: all CPUs' busy time per operation (/proc/stat, 10 ms ticks: includes interrupts,")
	fmt.Println("# kernel threads and anything else running); cpu_ns_min/max: the runs' range.")
	fmt.Println("# An operation of fdatasync-S / fsync-S is one write of S bytes and its sync.")
	fmt.Println("test\tbytes\tqd\tops_per_s\twall_us\tuser_ns\tsys_ns\tcpu_ns\tmachine_ns\tcpu_ns_min\tcpu_ns_max")
}
