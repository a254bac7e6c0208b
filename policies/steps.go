package policies

import (
	"github.com/ddlsim/ddlsim/model/maint"
	"github.com/ddlsim/ddlsim/model/server"
	"github.com/ddlsim/ddlsim/sim"
)

// flushOptions are the FLUSH_WRITE walk's options for the server's version: restart from
// the tail unless the version pins, the version's retry sleep; restart and yield parameters
// override.
func flushOptions(srv *server.Server, p *FullscanParams) maint.FlushOptions {
	tr := srv.Traits
	return maint.FlushOptions{Write: true, RestartFromTail: opt(p.Restart, !tr.FlushPinned),
		NoYield: !opt(p.Yield, true), RetrySleep: sim.Time(tr.FlushRetrySleep)}
}
