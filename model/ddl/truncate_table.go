package ddl

import (
	"github.com/ddlsim/ddlsim/model/config"
	"github.com/ddlsim/ddlsim/model/server"
)

// TruncateTable is TRUNCATE TABLE: in 8.0 a drop and re-create of the tablespace (the
// policy drops the old space's pages as for DROP TABLE); in 5.7 an in-place reinit of the
// same space (the policy's ALL_NO_WRITE path, see policies/fullscan.go).
type TruncateTable struct {
	config.NoParams `yaml:"-"`
}

func (o *TruncateTable) Stages() []Stage {
	return []Stage{{Name: "truncate", MDL: MDLExclusive, Phases: []string{"drop"}}}
}

func (o *TruncateTable) Run(x *Exec) { dropSpace(x, server.OpTruncateTable) }
