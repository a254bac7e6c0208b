package workload

import (
	"fmt"

	"github.com/ddlsim/ddlsim/model/config"
	"github.com/ddlsim/ddlsim/model/schema"
	"github.com/ddlsim/ddlsim/model/server"
	"github.com/ddlsim/ddlsim/sim"
)

// tempRowBytes: a GROUP BY / information_schema temp-table row, ~100 bytes.
const tempRowBytes = 100

// StartTempTableConnections spawns clients that loop connect → a statement that materializes
// an InnoDB internal temp table in the session's temporary tablespace → disconnect. At
// disconnect 8.0.13+ truncates the session temp tablespace when the session extended it
// (srv0tmp.cc Tablespace_pool::free_ts → fil_truncate_tablespace), which is where the
// policies differ. onTruncate (may be nil) receives each truncation's work.
func StartTempTableConnections(srv *server.Server, cfg *config.TempTableConnections, onTruncate func(start, end sim.Time, st server.ScanStats)) error {
	rows := int64(cfg.TempRows)
	perPage := (srv.PageSize - 120) * 15 / 16 / (tempRowBytes + 5)
	pages := (rows + perPage - 1) / perPage
	for i := 0; i < cfg.Threads; i++ {
		name := fmt.Sprintf("temp_conn[%d]", i)
		sp := srv.Spaces.New(fmt.Sprintf("innodb_temporary.temp_%d", i+1))
		sp.Temp = true
		srv.Spawn(name, "temp", func(t *server.Thread) {
			if at := sim.Time(cfg.Start); at > t.Now() {
				t.Sleep(at - t.Now())
			}
			co := &srv.Costs
			for cfg.Stop == 0 || t.Now() < sim.Time(cfg.Stop) {
				t.Charge(co.Connect)
				srv.Stats.Connects++
				t.Charge(co.Statement + sim.Time(rows)*co.TempTableRow)
				for p := int64(0); p < pages; p++ {
					t.NewPage(schema.MakePageID(sp.ID, sp.NextPage))
					sp.NextPage++
				}
				for p := int64(0); p < pages; p++ {
					t.Read(schema.MakePageID(sp.ID, uint32(3+p)))
				}
				srv.Stats.Reads++
				// Disconnect: the session extended its temp tablespace, so it is truncated.
				if sp.NextPage > 5 { // FIL_IBT_FILE_INITIAL_SIZE
					start := t.Now()
					sp.Version++ // 8.0.23+: bump_version(); before, the scan below frees them
					st := srv.Policy.DropPages(t, sp, server.OpTempTruncate)
					t.Pay()
					sp.NextPage = 3
					srv.Stats.TempTruncations++
					if onTruncate != nil {
						onTruncate(start, t.Now(), st)
					}
				}
				// The client's side of a connection: TCP handshake, server greeting, auth
				// exchange and the statement itself are round trips (4 × client_rtt), then
				// its own think time; the server's connect CPU is charged above.
				t.Sleep(4*sim.Time(srv.Sc.HardwareProfile.ClientRTT) + sim.Time(cfg.Think))
			}
		})
	}
	return nil
}
