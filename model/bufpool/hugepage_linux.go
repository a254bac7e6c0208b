package bufpool

import (
	"syscall"
	"unsafe"
)

// adviseHuge asks for transparent huge pages on a large random-access array. A page hit
// makes two random accesses (hash slot, hot record) into arrays of tens of MiB; with 4 KiB
// pages nearly every one also misses the TLB. Best effort: errors are ignored, and on
// kernels with THP "never" nothing changes.
func adviseHuge(p unsafe.Pointer, size uintptr) {
	const huge = 2 << 20
	if size < 2*huge {
		return
	}
	start := (uintptr(p) + huge - 1) &^ (huge - 1)
	end := (uintptr(p) + size) &^ (huge - 1)
	if end <= start {
		return
	}
	b := unsafe.Slice((*byte)(unsafe.Add(p, start-uintptr(p))), end-start)
	_ = syscall.Madvise(b, syscall.MADV_HUGEPAGE)
}
