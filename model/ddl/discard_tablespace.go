package ddl

import (
	"github.com/ddlsim/ddlsim/model/config"
	"github.com/ddlsim/ddlsim/model/server"
	"github.com/ddlsim/ddlsim/model/version"
)

// DiscardTablespace is ALTER TABLE ... DISCARD TABLESPACE: fil_discard_tablespace, which
// before 8.0.23 removes every page of the space from the pool (BUF_REMOVE_ALL_NO_WRITE), from
// 8.0.23 on leaves them stale (BUF_REMOVE_NONE; docs/innodb-source.md §4), and in MariaDB
// unlinks them from the flush list (buf_flush_remove_pages). The table then has no tablespace:
// statements on it fail (ER_TABLESPACE_DISCARDED) until an IMPORT, which is not modelled.
type DiscardTablespace struct {
	config.NoParams `yaml:"-"`
}

func (o *DiscardTablespace) Stages() []Stage {
	return []Stage{{Name: "discard", MDL: server.MDLExclusive, Phases: []string{"drop"}}}
}

func (o *DiscardTablespace) Run(x *Exec) {
	x.Space.Deleted = true
	x.Phase("drop", func() server.ScanStats { return x.Srv.DropPages(x.T, x.Space, version.OpDiscard) })
	x.Table.Dropped = true
}
