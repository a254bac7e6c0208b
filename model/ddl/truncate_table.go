package ddl

import (
	"github.com/ddlsim/ddlsim/model/config"
	"github.com/ddlsim/ddlsim/model/server"
	"github.com/ddlsim/ddlsim/model/version"
	"github.com/ddlsim/ddlsim/sim"
)

// TruncateTable is TRUNCATE TABLE, under MDL_EXCLUSIVE for the whole statement. 5.5 and 5.6
// discard the tablespace (BUF_REMOVE_ALL_NO_WRITE) and create the table under a new space id;
// 5.7 reinitializes the same tablespace in place (row_truncate_table_for_mysql: its pages freed
// by dict_drop_index_tree, then BUF_REMOVE_ALL_NO_WRITE of the same space id); 8.0 renames,
// drops (the DROP path) and creates it under a new space id. The policy drops the old pages as
// the version does (model/version). The load goes on against the empty table.
//
// With the profile's file-system costs (filework.go), MariaDB 10.11's ha_innobase::truncate
// (one dictionary transaction, MDEV-13564): FILE_RENAME of the old file, the drop's
// dictionary deletes, the new tablespace (FILE_CREATE, create + 64 KiB), the commit's
// FILE_DELETE + unlink of the renamed file, the close that frees its blocks, then the
// statistics reset (dict_stats_empty_table_and_save: a transaction of its own). MySQL 8.0's
// innobase_truncate: rename, create, the dictionary transaction, then the DROP's post-DDL
// file deletion.
type TruncateTable struct {
	config.NoParams `yaml:"-"`
}

func (o *TruncateTable) Stages() []Stage {
	return []Stage{{Name: "truncate", MDL: server.MDLExclusive,
		Phases: []string{"rename_file", "create_file", "dictionary", "free_pages", "delete_file", "drop", "release_file", "stats"}}}
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
	fw := fileWork(x)
	var size, written int64
	if fw != version.FileWorkNone {
		size, written = srv.FileBytes(sp)
		renameFile(x, fw)
	}
	dict := func(commit bool) {
		x.Phase("dictionary", func() server.ScanStats {
			dictionary(x, fw)
			if commit {
				x.T.CommitWait()
			}
			return server.ScanStats{}
		})
	}
	switch fw {
	case version.FileWorkMariaDB:
		dict(false)
		createFile(x, fw)
		deleteFile(x, fw) // at the one transaction's commit
	case version.FileWorkMySQL80:
		createFile(x, fw)
		dict(true)
	}
	sp.Deleted = true
	x.Phase("drop", func() server.ScanStats { return srv.DropPages(x.T, sp, version.OpTruncateTable) })
	switch fw {
	case version.FileWorkMariaDB:
		freeFile(x, size, written, fw)
	case version.FileWorkMySQL80:
		deleteFile(x, fw)
		freeFile(x, size, size, fw)
	}
	tab := x.Table
	recreate(srv, tab, srv.Spaces.New(tab.Name))
	if fw == version.FileWorkMariaDB {
		// dict_stats_empty_table_and_save: the statistics rows rewritten, committed.
		x.Phase("stats", func() server.ScanStats {
			rows := 1
			for _, ix := range tab.Indexes() {
				rows += max(1, len(ix.Columns)) + 2
			}
			c := srv.Costs
			x.T.Charge(sim.Time(rows) * (c.Row + 3*c.PageHit))
			srv.Redo.Advance(uint64(rows) * server.RedoPerPage)
			x.T.CommitWait()
			return server.ScanStats{}
		})
	}
}
