package output

import (
	"errors"
	"fmt"
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
	if err := os.MkdirAll(parent, 0o755); err != nil {
		return nil, err
	}
	removeStale(parent, base)
	tmp, err := os.MkdirTemp(parent, base+".tmp-")
	if err != nil {
		return nil, err
	}
	host, _ := os.Hostname()
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
		// Unmarked: an older ddlsim's, or killed between creating and marking it.
		return old || time.Since(fi.ModTime()) > time.Minute
	}
	h, pidText, _ := strings.Cut(strings.TrimSpace(string(b)), " ")
	pid, err := strconv.Atoi(pidText)
	if err != nil || h != host {
		return old
	}
	return !alive(pid)
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
