package server_test

import (
	"testing"

	"github.com/ddlsim/ddlsim/model/bufpool"
	"github.com/ddlsim/ddlsim/model/config"
	"github.com/ddlsim/ddlsim/model/runner"
	"github.com/ddlsim/ddlsim/model/server"
	"github.com/ddlsim/ddlsim/sim"
)

// A page being written (BUF_IO_WRITE) can still be read: the flush holds the block's SX latch,
// which S latches share, so buf_page_get_gen only waits for reads in flight. A thread that
// modifies the page needs the X latch and waits until the write completes.
func TestPageBeingWrittenBlocksWritersNotReaders(t *testing.T) {
	sc := loadScenario(t, `
name: iofix
seed: 1
hardware: profiles/8c-64g.yaml
mysql: {version: "8.0.18", innodb_buffer_pool_size: 64MiB, innodb_buffer_pool_instances: 1}
policy: fullscan
data:
  - {name: sb, tables: 1, rows: 10k}
warm: {fill: 0.9}
duration: 1s
`)
	s, srv := warmServer(t, sc, "fullscan")
	pid := srv.Tables[0].Primary.Leaf(0)
	in := srv.InstanceOf(pid)
	f := in.BP.Lookup(bufpool.PageID(pid))
	if f == bufpool.Nil {
		t.Fatal("leaf 0 not in the warm pool")
	}
	const writeDone = 5 * sim.Millisecond
	in.BP.SetIOFix(f, bufpool.IOWrite)
	s.At(writeDone, func() { in.BP.SetIOFix(f, bufpool.IONone) })
	var readAt, writeAt sim.Time
	srv.Spawn("reader", "fg", func(th *server.Thread) { th.Read(pid); th.Pay(); readAt = th.Now() })
	srv.Spawn("writer", "fg", func(th *server.Thread) { th.Write(pid); th.Pay(); writeAt = th.Now() })
	s.Run(50 * sim.Millisecond)
	if readAt >= sim.Millisecond {
		t.Errorf("reader finished at %v: it waited for the write (want ~immediately)", readAt)
	}
	if writeAt < writeDone {
		t.Errorf("writer finished at %v, before the write completed at %v", writeAt, writeDone)
	}
}

// warmServer builds sc's server with the named policy and warms its pool; the simulation is
// closed when the test ends.
func warmServer(t *testing.T, sc *config.Scenario, policy string) (*sim.Sim, *server.Server) {
	t.Helper()
	sc.Seed = 1
	sc.Policy = config.PolicySpec{Name: policy}
	m, err := runner.Build(sc, runner.BuildOptions{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(m.Close)
	return m.Sim, m.Server
}
