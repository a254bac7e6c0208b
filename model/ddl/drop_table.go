package ddl

import (
	"github.com/ddlsim/ddlsim/model/config"
	"github.com/ddlsim/ddlsim/model/schema"
	"github.com/ddlsim/ddlsim/model/server"
)

// DropTable is DROP TABLE (file-per-table): the tablespace is marked deleted and the policy
// drops its pages (community 8.0 before 8.0.23: btr_drop_ahi_for_table, then
// fil_delete_tablespace(BUF_REMOVE_FLUSH_NO_WRITE); docs/innodb-source.md §4). The load that
// used the table goes on against an empty table of the same shape in a new tablespace (DROP
// followed by CREATE).
type DropTable struct {
	config.NoParams `yaml:"-"`
}

func (o *DropTable) Stages() []Stage {
	return []Stage{{Name: "drop", MDL: MDLExclusive, Phases: []string{"drop"}}}
}

func (o *DropTable) Run(x *Exec) { dropSpace(x, server.OpDropTable) }

// dropSpace is what DROP, TRUNCATE and DISCARD share: the space marked deleted, its pages
// dropped through the policy, the table re-created empty in a fresh tablespace.
func dropSpace(x *Exec, op server.Op) {
	t, srv, sp := x.T, x.Srv, x.Space
	sp.Deleted = true
	x.Phase("drop", func() server.ScanStats { return srv.DropPages(t, sp, op) })
	recreate(srv, x.Table)
}

// recreate gives a dropped/truncated table a fresh empty tablespace of the same shape, so the
// load that used it continues on cold pages (TRUNCATE semantics; DROP followed by re-create).
func recreate(srv *server.Server, tab *schema.Table) {
	nsp := srv.Spaces.New(tab.Name)
	nt := tab.Fresh(nsp.ID)
	*tab = *nt
	nsp.Table, nsp.NextPage = tab, tab.NextPage
}
