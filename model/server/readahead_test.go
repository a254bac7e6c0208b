package server_test

import (
	"testing"

	"github.com/ddlsim/ddlsim/model/server"
	"github.com/ddlsim/ddlsim/sim"
)

const readAheadYAML = `
name: readahead
seed: 1
hardware: profiles/lab-2c.yaml
mysql: {version: "mariadb-10.11.19", innodb_buffer_pool_size: 256MiB}
data:
  - {name: sb, tables: 1, rows: 200k}
warm: {fill: 0}
duration: 1s
`

// scanCold reads every leaf of a cold table in key order, by ScanLeaves (linear read-ahead)
// or page by page (a literal loop of synchronous reads), and returns the scan's time, its own
// misses and the pages read ahead.
func scanCold(t *testing.T, readAhead bool) (sim.Time, uint64, uint64, int64) {
	s, srv := warmServer(t, loadScenario(t, readAheadYAML), "lazy")
	ix := srv.Tables[0].Primary
	n := ix.LeafPages()
	var took sim.Time
	var misses uint64
	srv.Spawn("scan", "fg", func(th *server.Thread) {
		start := th.Now()
		if readAhead {
			th.ScanLeaves(ix, 0, n-1)
		} else {
			for l := int64(0); l < n; l++ {
				th.Read(ix.Leaf(l))
			}
		}
		th.Pay()
		took, misses = th.Now()-start, th.Misses
	})
	s.Run(10 * sim.Second)
	return took, misses, srv.Stats.ReadAhead, n
}

// TestLinearReadAhead: a key-order scan of a cold table triggers buf_read_ahead_linear at the
// end of every extent it read in order, so after the first extent it finds the pages read (or
// in flight) in the background, spread over the read I/O threads: its own misses are about one
// extent, the rest are read-ahead, and it takes well under the page-by-page scan's time (the
// device serves the background reads in parallel). Page by page, nothing is read ahead.
func TestLinearReadAhead(t *testing.T) {
	plain, plainMiss, plainRA, n := scanCold(t, false)
	ra, raMiss, raRA, _ := scanCold(t, true)
	t.Logf("%d leaves: page by page %.1f ms (%d misses), ScanLeaves %.1f ms (%d misses, %d read ahead)",
		n, plain.Seconds()*1e3, plainMiss, ra.Seconds()*1e3, raMiss, raRA)
	if plainRA != 0 || plainMiss != uint64(n) {
		t.Errorf("page by page: %d misses, %d read ahead: want %d misses, none ahead", plainMiss, plainRA, n)
	}
	if raMiss > 2*64 {
		t.Errorf("ScanLeaves: %d foreground misses: want about the first extent's 64", raMiss)
	}
	if raMiss+raRA != uint64(n) {
		t.Errorf("ScanLeaves: %d misses + %d read ahead != %d leaves", raMiss, raRA, n)
	}
	if ra > plain*6/10 {
		t.Errorf("ScanLeaves took %.1f ms, page by page %.1f ms: want the read-ahead to overlap the reads", ra.Seconds()*1e3, plain.Seconds()*1e3)
	}
}
