package server

import (
	"fmt"

	"github.com/ddlsim/ddlsim/model/bufpool"
	"github.com/ddlsim/ddlsim/model/version"
)

// OpSpec says which policy call an operation makes and what it guarantees on return
// (docs/policies.md, "The contract"; policies' conformance suite checks it).
type OpSpec struct {
	Op version.Op
	// Flush: the operation calls FlushPages (else DropPages).
	Flush bool
	// SpaceLives: after a DropPages the space id stays in use (a truncation reuses it with a
	// new version), so no page of it may remain resident unless the policy reports it stale.
	// Otherwise the space is gone: only dirty pages must not remain (their writes would hit a
	// deleted file); clean ones may age out of the LRU.
	SpaceLives bool
}

// Ops lists every operation a policy serves, with its contract.
var Ops = []OpSpec{
	{Op: version.OpDropTable},
	{Op: version.OpTruncateTable},
	{Op: version.OpDiscard, SpaceLives: true},
	{Op: version.OpTempTruncate, SpaceLives: true},
	{Op: version.OpUndoTruncate, SpaceLives: true},
	{Op: version.OpExport, Flush: true},
	{Op: version.OpEncrypt, Flush: true},
	{Op: version.OpTempCreate, Flush: true},
	{Op: version.OpObserverFlush, Flush: true},
}

// Policy is the buffer-pool maintenance policy: how the pool gets rid of, or writes out, one
// tablespace's (or one flush observer's) pages. This is the seam the policies/ package plugs
// into; every cost it incurs is spent through the kernel (t.Lock, t.Charge, t.IO, t.Sleep, or
// the charged walks and toolkit of model/maint), so contention with foreground threads is simulated,
// not assumed. A policy is attached only by New (from runner.Build); callers reach it through
// Server.DropPages, Server.FlushPages and Server.Stale.
type Policy interface {
	Name() string
	// FreesStale declares that the policy leaves dropped pages in the pool, stale (Stale
	// reports them), and that the pool frees them where it meets them: at lookup, in the LRU
	// eviction scan, in LRU and flush batches (8.0.23+ lazy drop). A policy without it never
	// reports a page stale, and the hit path does not ask it.
	FreesStale() bool
	// DropPages makes the pool forget space sp's pages: DROP/TRUNCATE TABLE, DISCARD
	// TABLESPACE, temp- and undo-tablespace truncation. The caller has already marked the
	// space deleted or bumped its version.
	DropPages(t *Thread, sp *Space, op version.Op) ScanStats
	// FlushPages writes space sp's dirty pages (observer == 0) or the flush observer's dirty
	// pages, and returns when they are all on disk.
	FlushPages(t *Thread, sp *Space, observer uint16, op version.Op) ScanStats
	// Stale reports whether a resident page of space sp, read in when the space was at
	// version pageVersion, may be freed when met (lazy drop). sp is never nil.
	Stale(sp *Space, pageVersion uint16) bool
}

// PolicyFactory builds a policy for a server under construction.
type PolicyFactory func(srv *Server) (Policy, error)

// PolicyName is the attached policy's name.
func (s *Server) PolicyName() string { return s.policy.Name() }

// DropPages runs the policy's DropPages for op.
func (s *Server) DropPages(t *Thread, sp *Space, op version.Op) ScanStats {
	st := s.policy.DropPages(t, sp, op)
	s.afterPolicy(t, "DropPages", op)
	return st
}

// FlushPages runs the policy's FlushPages for op.
func (s *Server) FlushPages(t *Thread, sp *Space, observer uint16, op version.Op) ScanStats {
	st := s.policy.FlushPages(t, sp, observer, op)
	s.afterPolicy(t, "FlushPages", op)
	return st
}

// Stale reports whether frame f of instance in holds a page the policy considers stale.
func (s *Server) Stale(in *Instance, f bufpool.FrameID) bool {
	sp := s.Spaces.Get(in.BP.Key(f).Space())
	return sp != nil && s.policy.Stale(sp, in.BP.SpaceVersion(f))
}

// afterPolicy checks every instance's invariants after a policy call when the build has the
// invariants tag (invariants_on.go); it compiles to nothing otherwise.
func (s *Server) afterPolicy(t *Thread, call string, op version.Op) {
	if !Invariants {
		return
	}
	if err := s.CheckInvariants(); err != nil {
		panic(fmt.Sprintf("invariants: after %s.%s(%s) at %s: %v", s.policy.Name(), call, op, t.Now(), err))
	}
}

// CheckInvariants runs bufpool.Check on every instance and checks that every frame is on
// exactly one of the free list and the LRU, or in transit (taken from the free list by a
// thread still in its miss path).
func (s *Server) CheckInvariants() error {
	for i, in := range s.Inst {
		if err := in.BP.Check(); err != nil {
			return fmt.Errorf("instance %d: %w", i, err)
		}
		if n := in.BP.LRULen() + in.BP.FreeLen() + in.BP.Taken(); n != in.BP.Frames() {
			return fmt.Errorf("instance %d: LRU %d + free %d + in transit %d != frames %d", i, in.BP.LRULen(), in.BP.FreeLen(), in.BP.Taken(), in.BP.Frames())
		}
	}
	return nil
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

// PolicyFreesStale reports whether the attached policy leaves stale pages for the pool to free
// (Policy.FreesStale).
func (s *Server) PolicyFreesStale() bool { return s.lazy }
