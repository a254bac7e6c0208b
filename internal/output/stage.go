package output

import (
	"errors"
	"fmt"
	"hash/fnv"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"time"
)

// A result directory is written in a staging directory next to it and renamed into place
// (WriteDir). Stage creates the staging directory when the run starts — so an --out that
// cannot be written is refused in a second, before the simulation — and marks it with the
// owner's host and pid; a staging directory left by a run that was killed is removed by the
// next Stage for the same result (its owner is no longer alive, or it is older than a day
// and belongs to another host).

// stagingMark is the file in a staging directory naming its owner: "host pid".
const stagingMark = ".ddlsim-staging"

// staleAfter is how old another host's staging directory must be before it is removed (its
// owner's liveness cannot be checked from here).
const staleAfter = 24 * time.Hour

// Staging is a result directory being written.
type Staging struct {
	dir, tmp string
}

// Stage prepares writing a result to dir: dir must be absent, an empty directory or a
// previous result (CheckDir); its parent is created; stale staging directories of dir are
// removed; a fresh one is created and marked. Finish it with Write, or Abort.
func Stage(dir string) (*Staging, error) {
	dir = filepath.Clean(dir)
	parent, base := filepath.Split(dir)
	if parent == "" {
		parent = "."
	}
	if err := checkReplaceable(dir); err != nil {
		return nil, err
	}
	if err := checkRenamable(dir); err != nil {
		return nil, err
	}
	if err := os.MkdirAll(parent, 0o755); err != nil {
		return nil, err
	}
	removeStale(parent, base)
	// The name carries the owner (pid and a hash of the host) too, so a staging directory
	// left by a kill between its creation and its mark is still judged by its owner's
	// liveness, not only by age.
	host, _ := os.Hostname()
	tmp, err := os.MkdirTemp(parent, fmt.Sprintf("%s.tmp-%d-%s-", base, os.Getpid(), hostTag(host)))
	if err != nil {
		return nil, err
	}
	if err := os.WriteFile(filepath.Join(tmp, stagingMark), fmt.Appendf(nil, "%s %d\n", host, os.Getpid()), 0o644); err != nil {
		os.RemoveAll(tmp)
		return nil, err
	}
	return &Staging{dir: dir, tmp: tmp}, nil
}

// Abort removes the staging directory.
func (s *Staging) Abort() {
	if s != nil && s.tmp != "" {
		os.RemoveAll(s.tmp)
		s.tmp = ""
	}
}

// removeStale removes parent/base.tmp-* directories (and their .old siblings) whose owner
// is gone.
func removeStale(parent, base string) {
	entries, err := os.ReadDir(parent)
	if err != nil {
		return
	}
	host, _ := os.Hostname()
	for _, e := range entries {
		name := e.Name()
		if !e.IsDir() || !strings.HasPrefix(name, base+".tmp-") {
			continue
		}
		p := filepath.Join(parent, name)
		if stale(p, host) {
			os.RemoveAll(p)
		}
	}
}

// stale reports whether the staging directory p has no living owner.
func stale(p, host string) bool {
	fi, err := os.Stat(p)
	if err != nil {
		return false
	}
	old := time.Since(fi.ModTime()) > staleAfter
	owner := strings.TrimSuffix(p, ".old") // a .old directory belongs to its staging directory's owner
	b, err := os.ReadFile(filepath.Join(owner, stagingMark))
	if err != nil {
		b, err = os.ReadFile(filepath.Join(p, stagingMark))
	}
	if err != nil {
		// Unmarked: killed between creating and marking it (the name names the owner), or an
		// older ddlsim's (no owner in the name).
		if pid, ok := nameOwner(owner, host); ok {
			return !alive(pid)
		}
		return old || time.Since(fi.ModTime()) > time.Minute
	}
	h, pidText, _ := strings.Cut(strings.TrimSpace(string(b)), " ")
	pid, err := strconv.Atoi(pidText)
	if err != nil || h != host {
		return old
	}
	return !alive(pid)
}

// hostTag is a short hash of a host name that can stand in a file name.
func hostTag(host string) string {
	h := fnv.New32a()
	h.Write([]byte(host))
	return fmt.Sprintf("%08x", h.Sum32())
}

// nameOwner is the owner's pid in a staging directory's name (BASE.tmp-PID-HOSTTAG-RANDOM)
// when the name says that owner is on this host.
func nameOwner(p, host string) (int, bool) {
	name := filepath.Base(p)
	i := strings.LastIndex(name, ".tmp-")
	if i < 0 {
		return 0, false
	}
	parts := strings.SplitN(name[i+len(".tmp-"):], "-", 3)
	if len(parts) != 3 || parts[1] != hostTag(host) {
		return 0, false
	}
	pid, err := strconv.Atoi(parts[0])
	return pid, err == nil && pid > 0
}

// alive reports whether process pid exists (signal 0 checks without sending anything).
func alive(pid int) bool {
	if pid <= 0 {
		return false
	}
	if pid == os.Getpid() {
		return true
	}
	err := syscall.Kill(pid, 0)
	return err == nil || errors.Is(err, syscall.EPERM)
}

// checkRenamable refuses a dir the final rename cannot replace: a mount point (a tmpfs, a
// bind mount, a volume) cannot be renamed — rename(2) fails with EBUSY — so a result staged
// beside it could never be moved in, and the refusal must come before the run, not after.
func checkRenamable(dir string) error {
	fi, err := os.Stat(dir)
	if err != nil || !fi.IsDir() {
		return nil // absent: created by the rename; not a directory: checkReplaceable's
	}
	if isMountPoint(dir, fi) {
		return fmt.Errorf("%s is a mount point: a result is written beside it and renamed into place, which a mount point cannot be; give a directory inside it (%s)",
			dir, filepath.Join(dir, "result"))
	}
	return nil
}

// isMountPoint reports whether dir is mounted on: on another device than its parent, or
// listed in /proc/self/mountinfo (a bind mount stays on its device).
func isMountPoint(dir string, fi os.FileInfo) bool {
	abs, err := filepath.Abs(dir)
	if err != nil {
		return false
	}
	if real, err := filepath.EvalSymlinks(abs); err == nil {
		abs = real
	}
	if pfi, err := os.Stat(filepath.Dir(abs)); err == nil {
		a, ok1 := fi.Sys().(*syscall.Stat_t)
		b, ok2 := pfi.Sys().(*syscall.Stat_t)
		if ok1 && ok2 && a.Dev != b.Dev {
			return true
		}
	}
	b, err := os.ReadFile("/proc/self/mountinfo")
	if err != nil {
		return false
	}
	for _, line := range strings.Split(string(b), "\n") {
		// id parent major:minor root MOUNT_POINT options ...; spaces in paths are \040.
		if f := strings.Fields(line); len(f) > 4 && unescapeMount(f[4]) == abs {
			return true
		}
	}
	return false
}

// unescapeMount undoes mountinfo's octal escapes (\040 space, \011 tab, \012 newline, \134 \).
func unescapeMount(s string) string {
	if !strings.Contains(s, "\\") {
		return s
	}
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		if s[i] == '\\' && i+3 < len(s) {
			if n, err := strconv.ParseUint(s[i+1:i+4], 8, 8); err == nil {
				b.WriteByte(byte(n))
				i += 3
				continue
			}
		}
		b.WriteByte(s[i])
	}
	return b.String()
}
