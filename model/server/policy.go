package server

import "github.com/ddlsim/ddlsim/model/bufpool"

// Op names the statement on whose behalf a policy works (for statistics and for policies that
// treat operations differently).
type Op string

const (
	OpDropTable     Op = "drop_table"
	OpTruncateTable Op = "truncate_table"
	OpDiscard       Op = "discard_tablespace"
	OpExport        Op = "flush_for_export"
	OpEncrypt       Op = "encrypt_tablespace"
	OpTempTruncate  Op = "temp_truncate"
	OpTempCreate    Op = "temp_create" // a new session temp tablespace: FLUSH_WRITE of its (empty) space
	OpUndoTruncate  Op = "undo_truncate"
	OpObserverFlush Op = "observer_flush"
)

// Policy is the buffer-pool maintenance policy: how the pool gets rid of, or writes out, one
// tablespace's (or one flush observer's) pages. This is the seam the policies/ package plugs
// into; every cost it incurs is spent through the kernel (t.Lock, t.Charge, t.IO, t.Sleep), so
// contention with foreground threads is simulated, not assumed.
type Policy interface {
	Name() string
	// DropPages makes the pool forget space sp's pages: DROP/TRUNCATE TABLE, DISCARD
	// TABLESPACE, temp- and undo-tablespace truncation. The caller has already marked the
	// space deleted or bumped its version.
	DropPages(t *Thread, sp *Space, op Op) ScanStats
	// FlushPages writes space sp's dirty pages (observer == 0) or the flush observer's dirty
	// pages, and returns when they are all on disk.
	FlushPages(t *Thread, sp *Space, observer uint16, op Op) ScanStats
	// Stale reports whether frame f holds a page that may be freed when met (lazy drop).
	Stale(in *Instance, f bufpool.FrameID) bool
}

// ScanStats is what a maintenance routine did.
type ScanStats struct {
	NodesVisited uint64 // list nodes passed by scans
	PagesFreed   uint64
	PagesFlushed uint64
	AHIDropped   uint64
	Restarts     uint64 // scans restarted from the tail
	Yields       uint64 // mutex releases in the middle of a scan
	Sleeps       uint64 // retry sleeps (2 ms / 20 ms)
}

// Add accumulates o into s.
func (s *ScanStats) Add(o ScanStats) {
	s.NodesVisited += o.NodesVisited
	s.PagesFreed += o.PagesFreed
	s.PagesFlushed += o.PagesFlushed
	s.AHIDropped += o.AHIDropped
	s.Restarts += o.Restarts
	s.Yields += o.Yields
	s.Sleeps += o.Sleeps
}
