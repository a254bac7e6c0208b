package main

import (
	"fmt"
	"math/rand/v2"
	"syscall"
	"time"
	"unsafe"
)

// Linux native AIO through its system calls (linux/aio_abi.h), without libaio.
type iocb struct {
	data      uint64
	key       uint32
	rwFlags   uint32
	opcode    uint16
	reqprio   int16
	fildes    uint32
	buf       uint64
	nbytes    uint64
	offset    int64
	reserved2 uint64
	flags     uint32
	resfd     uint32
}

type ioEvent struct {
	data, obj uint64
	res, res2 int64
}

const iocbCmdPwrite = 1

// aioWrites keeps t.qd random 16 KiB writes in flight: one io_submit per write (as InnoDB's
// tpool submits each page), completions reaped with io_getevents (at least one, at most all
// in flight) whenever the queue is full.
func aioWrites(fd int, buf []byte, t test, size int64, d time.Duration, r *rand.Rand) (int, error) {
	var ctx uintptr
	if _, _, e := syscall.Syscall(syscall.SYS_IO_SETUP, uintptr(t.qd), uintptr(unsafe.Pointer(&ctx)), 0); e != 0 {
		return 0, fmt.Errorf("io_setup: %w", e)
	}
	defer syscall.Syscall(syscall.SYS_IO_DESTROY, ctx, 0, 0)
	// The control blocks live outside the Go heap (the kernel keeps their address).
	mem, err := syscall.Mmap(-1, 0, t.qd*int(unsafe.Sizeof(iocb{}))+t.qd*8+t.qd*int(unsafe.Sizeof(ioEvent{})),
		syscall.PROT_READ|syscall.PROT_WRITE, syscall.MAP_PRIVATE|syscall.MAP_ANONYMOUS)
	if err != nil {
		return 0, err
	}
	defer syscall.Munmap(mem)
	cbs := unsafe.Slice((*iocb)(unsafe.Pointer(&mem[0])), t.qd)
	ptrs := unsafe.Slice((**iocb)(unsafe.Pointer(&mem[t.qd*int(unsafe.Sizeof(iocb{}))])), t.qd)
	events := unsafe.Slice((*ioEvent)(unsafe.Pointer(&mem[t.qd*int(unsafe.Sizeof(iocb{}))+t.qd*8])), t.qd)
	free := make([]int, 0, t.qd)
	for i := range t.qd {
		free = append(free, i)
	}
	inFlight, ops := 0, 0
	end := time.Now().Add(d)
	for {
		done := ops >= 64 && time.Now().After(end)
		if !done && len(free) > 0 {
			i := free[len(free)-1]
			free = free[:len(free)-1]
			cbs[i] = iocb{data: uint64(i), opcode: iocbCmdPwrite, fildes: uint32(fd),
				buf: uint64(uintptr(unsafe.Pointer(&buf[i*t.size]))), nbytes: uint64(t.size),
				offset: r.Int64N(size/page) * page}
			ptrs[0] = &cbs[i]
			n, _, e := syscall.Syscall(syscall.SYS_IO_SUBMIT, ctx, 1, uintptr(unsafe.Pointer(&ptrs[0])))
			if e != 0 || n != 1 {
				return ops, fmt.Errorf("io_submit: %v (%d)", e, n)
			}
			inFlight++
			continue
		}
		if inFlight == 0 {
			return ops, nil
		}
		n, _, e := syscall.Syscall6(syscall.SYS_IO_GETEVENTS, ctx, 1, uintptr(t.qd),
			uintptr(unsafe.Pointer(&events[0])), 0, 0)
		if e == syscall.EINTR {
			continue
		}
		if e != 0 {
			return ops, fmt.Errorf("io_getevents: %w", e)
		}
		for _, ev := range events[:n] {
			if ev.res != int64(t.size) {
				return ops, fmt.Errorf("aio write returned %d", ev.res)
			}
			free = append(free, int(ev.data))
		}
		inFlight -= int(n)
		ops += int(n)
	}
}
