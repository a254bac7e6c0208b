package ddl

import (
	"github.com/ddlsim/ddlsim/model/config"
	"github.com/ddlsim/ddlsim/model/server"
)

// DiscardTablespace is ALTER TABLE ... DISCARD TABLESPACE: fil_discard_tablespace, which
// before 8.0.23 removes every page of the space from the pool (BUF_REMOVE_ALL_NO_WRITE) and
// from 8.0.23 on leaves them stale (BUF_REMOVE_NONE; docs/innodb-source.md §4).
type DiscardTablespace struct {
	config.NoParams `yaml:"-"`
}

func (o *DiscardTablespace) Stages() []Stage {
	return []Stage{{Name: "discard", MDL: MDLExclusive, Phases: []string{"drop"}}}
}

func (o *DiscardTablespace) Run(x *Exec) { dropSpace(x, server.OpDiscard) }
