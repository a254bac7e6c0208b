package ddl

import (
	"github.com/ddlsim/ddlsim/model/config"
	"github.com/ddlsim/ddlsim/model/server"
	"github.com/ddlsim/ddlsim/model/version"
)

// UndoTruncate is undo tablespace truncation (innodb_undo_log_truncate): before 8.0.23
// fil_replace_tablespace → fil_delete_tablespace(BUF_REMOVE_ALL_NO_WRITE), from 8.0.23 a new
// space version (docs/innodb-source.md §6). It takes no table.
type UndoTruncate struct {
	config.NoParams `yaml:"-"`
}

func (o *UndoTruncate) Stages() []Stage {
	return []Stage{{Name: "truncate", MDL: server.MDLNone, Phases: []string{"truncate"}}}
}

func (o *UndoTruncate) Run(x *Exec) {
	t, srv := x.T, x.Srv
	u := srv.Undo
	u.Version++
	x.Phase("truncate", func() server.ScanStats { return srv.DropPages(t, u, version.OpUndoTruncate) })
	u.NextPage = 3
}
