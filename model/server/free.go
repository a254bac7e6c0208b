package server

import "github.com/ddlsim/ddlsim/model/bufpool"

// ReadyToFree prepares frame f for a free without a write, the caller holding the LRU mutex:
// a dirty page (a stale one, or one of a space being dropped) leaves the flush list first,
// under the flush-list mutex, which may wait. It reports whether f may be freed now. A hit
// buffer-fixes a page without the LRU mutex, so while the caller waited a thread may have
// fixed f (or started I/O on it), and buf_LRU_free_page frees only a page that can be
// relocated (buf_page_can_relocate: no buffer fix, no I/O fix): such a page is left alone.
func (t *Thread) ReadyToFree(in *Instance, f bufpool.FrameID) bool {
	bp := in.BP
	if !bp.IsDirty(f) {
		return bp.InLRU(f) && !bp.Blocked(f)
	}
	t.Lock(in.Flush)
	ok := bp.InLRU(f) && !bp.Blocked(f)
	if ok && bp.IsDirty(f) {
		bp.MarkClean(f)
	}
	t.Unlock(in.Flush)
	return ok
}
