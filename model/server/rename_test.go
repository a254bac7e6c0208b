package server_test

import (
	"testing"

	"github.com/ddlsim/ddlsim/model/bufpool"
	"github.com/ddlsim/ddlsim/model/server"
	"github.com/ddlsim/ddlsim/sim"
)

// Fil_shard::space_rename sleeps 100 ms per retry while the file has page writes in flight:
// a rename that starts while a page of the space is being written waits one retry (the write
// takes well under 100 ms); with nothing in flight it is one fsync and the rename's write.
func TestRenameWaitsForPendingWrites(t *testing.T) {
	sc := loadScenario(t, `
name: rename
seed: 1
hardware: profiles/8c-64g.yaml
mysql: {version: "8.0.18", innodb_buffer_pool_size: 64MiB, innodb_buffer_pool_instances: 1}
policy: fullscan
data:
  - {name: sb, tables: 2, rows: 10k}
warm: {fill: 0.9, dirty: 0.5}
duration: 1s
`)
	s, srv := warmServer(t, sc, "fullscan")
	space := srv.Tables[0].Space
	var dirty bufpool.FrameID = bufpool.Nil
	var in *server.Instance
	for _, i := range srv.Inst {
		for f := i.BP.FlushOldest(); f != bufpool.Nil; f = i.BP.FlushNewer(f) {
			if i.BP.Key(f).Space() == space {
				dirty, in = f, i
				break
			}
		}
	}
	if dirty == bufpool.Nil {
		t.Fatal("no dirty page of the table in the warm pool")
	}
	var busyRetries, idleRetries int
	var busyEnd, idleEnd sim.Time
	srv.Spawn("flusher", "cleaner", func(th *server.Thread) {
		in.BP.SetIOFix(dirty, bufpool.IOWrite)
		th.FlushPageAsync(in, dirty)
	})
	srv.Spawn("ddl", "ddl", func(th *server.Thread) {
		// Wait until the flusher's doublewrite write and fsync are done and the page write is
		// in flight.
		for srv.PendingIO(space) == 0 && th.Now() < 10*sim.Millisecond {
			th.Sleep(10 * sim.Microsecond)
		}
		if srv.PendingIO(space) == 0 {
			t.Error("no write in flight when the rename starts")
		}
		busyRetries = th.RenameSpace(space)
		busyEnd = th.Now()
		idleRetries = th.RenameSpace(srv.Tables[1].Space)
		idleEnd = th.Now() - busyEnd
	})
	s.Run(sim.Second)
	if busyRetries != 1 || busyEnd < 100*sim.Millisecond {
		t.Errorf("rename with a write in flight: %d retries, done at %v; want 1 retry, >= 100 ms", busyRetries, busyEnd)
	}
	if idleRetries != 0 || idleEnd > 10*sim.Millisecond {
		t.Errorf("rename of an idle file: %d retries, %v", idleRetries, idleEnd)
	}
}
