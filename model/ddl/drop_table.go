package ddl

import (
	"github.com/ddlsim/ddlsim/model/config"
	"github.com/ddlsim/ddlsim/model/maint"
	"github.com/ddlsim/ddlsim/model/schema"
	"github.com/ddlsim/ddlsim/model/server"
	"github.com/ddlsim/ddlsim/model/version"
)

// DropTable is DROP TABLE (file-per-table), under MDL_EXCLUSIVE for the whole statement. In
// 5.5 – 5.7 every page of the table is freed first (dict_drop_index_tree, FreeTablePages);
// then the tablespace is marked deleted and the policy drops its pages as the version does
// (model/version's table: 8.0 before 8.0.23 runs btr_drop_ahi_for_table then
// fil_delete_tablespace(BUF_REMOVE_FLUSH_NO_WRITE), docs/innodb-source.md §4). The table is
// gone: statements on it fail with ER_NO_SUCH_TABLE.
type DropTable struct {
	config.NoParams `yaml:"-"`
}

func (o *DropTable) Stages() []Stage {
	return []Stage{{Name: "drop", MDL: server.MDLExclusive, Phases: []string{"free_pages", "drop"}}}
}

func (o *DropTable) Run(x *Exec) {
	freePages(x)
	x.Space.Deleted = true
	x.Phase("drop", func() server.ScanStats { return x.Srv.DropPages(x.T, x.Space, version.OpDropTable) })
	x.Table.Dropped = true
}

// freePages is the page-freeing phase of a 5.x DROP (and 5.7's in-place TRUNCATE).
func freePages(x *Exec) {
	if x.Srv.Traits.FreePagesOnDrop {
		x.Phase("free_pages", func() server.ScanStats { return maint.FreeTablePages(x.T, x.Table) })
	}
}

// recreate gives a truncated table its empty self in space sp (a new one, or the same one
// for 5.7's in-place TRUNCATE), so the load that used it goes on against cold pages.
func recreate(srv *server.Server, tab *schema.Table, sp *server.Space) {
	nt := tab.Fresh(sp.ID)
	*tab = *nt
	sp.Table, sp.NextPage = tab, tab.NextPage
}
