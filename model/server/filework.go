package server

import (
	"github.com/ddlsim/ddlsim/model/config"
	"github.com/ddlsim/ddlsim/model/schema"
	"github.com/ddlsim/ddlsim/sim"
)

// The file work of DROP / TRUNCATE TABLE (docs/mariadb-write-path.md §5): what a
// tablespace's file holds, what freeing it costs on this profile's filesystem (hardware.fs,
// measured by lab/probe/fscost) and the redo of the file operations.

// HasFS reports whether the profile measured the file-system calls (hardware.fs).
func (s *Server) HasFS() bool {
	fs := s.FS
	return len(fs.FreeWritten) > 0 || len(fs.UnlinkWritten) > 0 || fs.FreeUnwritten > 0 || fs.Unlink > 0
}

// FileBytes is the size of space sp's file and how much of it was ever written. The file
// is NextPage pages rounded up to its last extension step (fsp_get_pages_to_extend_ibd: 1 MiB
// below 32 MiB, 4 MiB from there). The pages of the loaded data set are written; so is a
// page created since that is no longer dirty in the pool (a flush wrote it, and it may have
// been evicted since); a page created since and still dirty was never written (a page
// written and dirtied again is counted as unwritten: the model keeps no per-page history),
// nor is the step's slack past NextPage.
func (s *Server) FileBytes(sp *Space) (size, written int64) {
	pages := int64(sp.NextPage)
	size = pages * s.PageSize
	step := int64(1 << 20)
	if size >= 32<<20 {
		step = 4 << 20
	}
	size = (size + step - 1) / step * step
	var fresh int64
	for _, in := range s.Inst {
		for f := range in.BP.SpaceFrames(sp.ID) {
			if in.BP.IsDirty(f) && schema.PageID(in.BP.Key(f)).Page() >= sp.Loaded {
				fresh++
			}
		}
	}
	written = max(0, pages-fresh) * s.PageSize
	return size, written
}

// interp is the measured wall time at bytes of a table of (size, wall) points: linear
// between points, proportional below the first, the last segment's slope past the last.
func interp(pts []config.FSPoint, bytes int64) sim.Time {
	if len(pts) == 0 || bytes <= 0 {
		return 0
	}
	x := float64(bytes)
	at := func(i int) (float64, float64) { return float64(pts[i].Size), float64(pts[i].Wall) }
	if x0, y0 := at(0); x <= x0 || len(pts) == 1 {
		return sim.Time(y0 * x / x0)
	}
	i := 1
	for i < len(pts)-1 && float64(pts[i].Size) < x {
		i++
	}
	x0, y0 := at(i - 1)
	x1, y1 := at(i)
	return sim.Time(y0 + (y1-y0)*(x-x0)/(x1-x0))
}

// FreeFileTime is the wall time of freeing a dropped file of size bytes of which written
// were written: closedUnlink selects unlink(2) of a closed file (MySQL 8.0) instead of
// close(2) of an unlinked one (MariaDB). The unwritten extents add the per-MiB release of
// never-written blocks; a file with nothing written pays the fixed cost of that release.
func (s *Server) FreeFileTime(size, written int64, closedUnlink bool) sim.Time {
	fs := s.FS
	tab := fs.FreeWritten
	if closedUnlink {
		tab = fs.UnlinkWritten
	}
	unwritten := max(0, size-written)
	d := sim.Time(fs.FreeUnwrittenPerMiB) * sim.Time(unwritten>>20)
	if written > 0 {
		return d + interp(tab, written)
	}
	return d + sim.Time(fs.FreeUnwritten)
}

// FileCall is a small file-system call (unlink of an open file, rename, create) whose CPU
// is its wall time (fscost: CPU ≈ wall for each): charged as CPU on the calling thread.
func (t *Thread) FileCall(d config.Duration) { t.Charge(sim.Time(d)) }

// FileWait is the calling thread waiting d in the kernel (an fsync of a small file, the
// release of a file's blocks): no CPU, no lock of the model held, no device occupied (the
// filesystem's work on the virtual disk is not separated from the rest of its traffic).
func (t *Thread) FileWait(d sim.Time) {
	if d > 0 {
		t.Sleep(d)
	}
}
