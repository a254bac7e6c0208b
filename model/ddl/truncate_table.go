package ddl

import (
	"github.com/ddlsim/ddlsim/model/config"
	"github.com/ddlsim/ddlsim/model/server"
	"github.com/ddlsim/ddlsim/model/version"
)

// TruncateTable is TRUNCATE TABLE, under MDL_EXCLUSIVE for the whole statement. 5.5 and 5.6
// discard the tablespace (BUF_REMOVE_ALL_NO_WRITE) and create the table under a new space id;
// 5.7 reinitializes the same tablespace in place (row_truncate_table_for_mysql: its pages freed
// by dict_drop_index_tree, then BUF_REMOVE_ALL_NO_WRITE of the same space id); 8.0 renames,
// drops (the DROP path) and creates it under a new space id. The policy drops the old pages as
// the version does (model/version). The load goes on against the empty table.
type TruncateTable struct {
	config.NoParams `yaml:"-"`
}

func (o *TruncateTable) Stages() []Stage {
	return []Stage{{Name: "truncate", MDL: server.MDLExclusive, Phases: []string{"free_pages", "drop"}}}
}

func (o *TruncateTable) Run(x *Exec) {
	srv, sp := x.Srv, x.Space
	if srv.Traits.TruncateInPlace {
		freePages(x)
		sp.Version++ // the same space id lives on: its old pages must not be met again
		x.Phase("drop", func() server.ScanStats { return srv.DropPages(x.T, sp, version.OpTruncateTable) })
		recreate(srv, x.Table, sp)
		return
	}
	sp.Deleted = true
	x.Phase("drop", func() server.ScanStats { return srv.DropPages(x.T, sp, version.OpTruncateTable) })
	recreate(srv, x.Table, srv.Spaces.New(x.Table.Name))
}
