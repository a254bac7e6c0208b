package output

import (
	"fmt"
	"os"
	"path/filepath"
	"testing"
)

// A staging directory killed before its mark was written is judged by the owner its name
// carries: a dead owner's is removed at once, a living owner's is kept (not a minute of
// litter, and never another live run's directory).
func TestUnmarkedStagingJudgedByNamedOwner(t *testing.T) {
	parent := t.TempDir()
	host, _ := os.Hostname()
	dead := filepath.Join(parent, fmt.Sprintf("result.tmp-%d-%s-1", deadPid(t), hostTag(host)))
	live := filepath.Join(parent, fmt.Sprintf("result.tmp-%d-%s-2", os.Getppid(), hostTag(host)))
	other := filepath.Join(parent, fmt.Sprintf("result.tmp-%d-%s-3", deadPid(t), hostTag(host+"x")))
	for _, d := range []string{dead, live, other} {
		if err := os.Mkdir(d, 0o700); err != nil {
			t.Fatal(err)
		}
	}
	st, err := Stage(filepath.Join(parent, "result"))
	if err != nil {
		t.Fatal(err)
	}
	defer st.Abort()
	if _, err := os.Stat(dead); !os.IsNotExist(err) {
		t.Errorf("a dead owner's unmarked staging directory was kept (%v)", err)
	}
	if _, err := os.Stat(live); err != nil {
		t.Errorf("a living owner's unmarked staging directory was removed: %v", err)
	}
	if _, err := os.Stat(other); err != nil {
		t.Errorf("another host's fresh unmarked staging directory was removed: %v", err)
	}
	if pid, ok := nameOwner(st.tmp, host); !ok || pid != os.Getpid() {
		t.Errorf("the new staging directory %s does not name its owner (%d, %v)", st.tmp, pid, ok)
	}
}

// deadPid is a pid with no process (the largest pids are rarely in use; checked).
func deadPid(t *testing.T) int {
	for pid := 4194000; pid > 4190000; pid-- {
		if !alive(pid) {
			return pid
		}
	}
	t.Skip("no free pid found")
	return 0
}
