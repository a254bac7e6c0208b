//go:build !cgo

package cbench

// Available reports whether the C benchmarks are compiled in (they need cgo).
const Available = false
