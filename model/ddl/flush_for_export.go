package ddl

import (
	"github.com/ddlsim/ddlsim/model/config"
	"github.com/ddlsim/ddlsim/model/server"
	"github.com/ddlsim/ddlsim/model/version"
)

// FlushForExport is FLUSH TABLES ... FOR EXPORT (row_quiesce_table_start,
// docs/innodb-source.md §6): the space's dirty pages written with
// buf_LRU_flush_or_remove_pages(BUF_REMOVE_FLUSH_WRITE), matched by space id.
type FlushForExport struct {
	config.NoParams `yaml:"-"`
}

func (o *FlushForExport) Stages() []Stage {
	// FLUSH TABLES ... FOR EXPORT locks the table MDL_SHARED_NO_WRITE: reads go on, writes
	// wait until UNLOCK TABLES (the model releases at the end of the flush).
	return []Stage{{Name: "flush", MDL: server.MDLSharedNoWrite, Phases: []string{"flush"}}}
}

func (o *FlushForExport) Run(x *Exec) {
	t, srv, sp := x.T, x.Srv, x.Space
	x.Phase("flush", func() server.ScanStats { return srv.FlushPages(t, sp, 0, version.OpExport) })
}
