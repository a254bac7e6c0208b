package server_test

import (
	"fmt"
	"testing"
)

// warm.dirty makes that fraction of the warm pages dirty, in LSN order, with a checkpoint age
// below the async flush point; the pool's invariants hold (flush list = dirty frames, ordered).
func TestWarmDirty(t *testing.T) {
	for _, d := range []float64{0, 0.2} {
		sc := loadScenario(t, fmt.Sprintf(`
name: warm-dirty
seed: 1
hardware: profiles/8c-64g.yaml
mysql: {version: "8.0.18", innodb_buffer_pool_size: 256MiB, innodb_buffer_pool_instances: 4, innodb_log_file_size: 64MiB}
policy: fullscan
data:
  - {name: sb, tables: 2, rows: 500k}
warm: {fill: 0.9, dirty: %g}
duration: 1s
`, d))
		_, srv := warmServer(t, sc, "fullscan")
		checkAll(t, srv, fmt.Sprintf("dirty=%g", d))
		got := float64(srv.DirtyPages()) / float64(srv.LRUPages())
		age := srv.Redo.Age()
		t.Logf("dirty=%g: %.4f of %d LRU pages dirty, checkpoint age %d (async point %d)", d, got, srv.LRUPages(), age, srv.Redo.AsyncAge)
		if got < d-0.005 || got > d+0.005 {
			t.Errorf("dirty=%g: %.4f of the warm pages are dirty", d, got)
		}
		if d > 0 && (age == 0 || age > srv.Redo.AsyncAge/2) {
			t.Errorf("dirty=%g: checkpoint age %d, want in (0, %d]", d, age, srv.Redo.AsyncAge/2)
		}
	}
}
