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
// fil_delete_tablespace(BUF_REMOVE_FLUSH_NO_WRITE), docs/innodb-source.md §4). MariaDB 10.11
// and MySQL 8.0 / 8.4 also do the statement's fixed work when the profile measured the
// file-system calls (filework.go): MariaDB's DDL-log syncs, dictionary transaction,
// FILE_DELETE + unlink at the commit, then the close that frees the file's blocks; MySQL 8.0's
// dictionary transaction and commit, then in the post-DDL phase the buffer-pool part, the
// MLOG_FILE_DELETE and the unlink of the closed file, which frees its blocks. The table is
// gone: statements on it fail with ER_NO_SUCH_TABLE.
type DropTable struct {
	config.NoParams `yaml:"-"`
}

func (o *DropTable) Stages() []Stage {
	return []Stage{{Name: "drop", MDL: server.MDLExclusive,
		Phases: []string{"ddl_log", "dictionary", "free_pages", "delete_file", "drop", "release_file"}}}
}

func (o *DropTable) Run(x *Exec) {
	fw := fileWork(x)
	var size, written int64
	if fw != version.FileWorkNone {
		size, written = x.Srv.FileBytes(x.Space) // before the policy removes any page
	}
	switch fw {
	case version.FileWorkMariaDB:
		ddlLog(x)
		x.Phase("dictionary", func() server.ScanStats { dictionary(x, fw); return server.ScanStats{} })
		deleteFile(x, fw)
	case version.FileWorkMySQL80:
		x.Phase("dictionary", func() server.ScanStats {
			dictionary(x, fw)
			x.T.CommitWait()
			return server.ScanStats{}
		})
	}
	freePages(x)
	x.Space.Deleted = true
	x.Phase("drop", func() server.ScanStats { return x.Srv.DropPages(x.T, x.Space, version.OpDropTable) })
	switch fw {
	case version.FileWorkMariaDB:
		freeFile(x, size, written, fw)
	case version.FileWorkMySQL80:
		deleteFile(x, fw)
		freeFile(x, size, size, fw) // 8.0.22+ extends a file by writing zeros: all of it is written
	}
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
