//go:build !linux

package bufpool

import "unsafe"

func adviseHuge(p unsafe.Pointer, size uintptr) {}
