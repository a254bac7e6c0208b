package ddl

import (
	"github.com/ddlsim/ddlsim/model/config"
	"github.com/ddlsim/ddlsim/model/indexbuild"
	"github.com/ddlsim/ddlsim/model/maint"
	"github.com/ddlsim/ddlsim/model/schema"
	"github.com/ddlsim/ddlsim/model/server"
	"github.com/ddlsim/ddlsim/model/version"
)

// OptimizeTable is OPTIMIZE TABLE / ALTER TABLE ... FORCE (8.0.18, docs/innodb-source.md §5a):
// every index built into a new tablespace under one observer (the clustered index loaded
// straight from the scan, skip_pk_sort), one observer flush, the table row-log apply; then,
// under the exclusive MDL (commit_inplace_alter_table_impl), the second row_log_table_apply of
// the DML logged since, the two Fil_shard::space_rename calls (old → #sql-ib, new → the
// table's name), each sleeping 100 ms per retry while its file has page writes in flight,
// the old tablespace dropped through the version's path as DROP TABLE drops one, and the
// persistent statistics (alter_stats_rebuild → dict_stats_update: sampled leaf dives per
// index, the stats rows written).
//
// Left out: dict_stats_stop_bg's wait for a background statistics run on the table (it is
// not modelled as running), and the unlink of the old file after the drop.
type OptimizeTable struct {
	config.NoParams `yaml:"-"`
}

func (o *OptimizeTable) Stages() []Stage {
	return []Stage{
		{Name: "prepare", MDL: server.MDLExclusive},
		{Name: "build", MDL: server.MDLSharedUpgradable, Phases: []string{"scan", "merge", "merge_pass_*", "load", "observer_flush", "row_log_apply"}},
		{Name: "commit", MDL: server.MDLExclusive, Phases: []string{"row_log_apply_final", "rename", "free_pages", "drop", "stats"}},
	}
}

func (o *OptimizeTable) Run(x *Exec) {
	t, srv, tab, sp := x.T, x.Srv, x.Table, x.Space
	nsp := srv.Spaces.New(tab.Name + "#new")
	nt := tab.Fresh(nsp.ID)
	nsp.Table, nsp.NextPage = nt, nt.NextPage
	idx := []indexbuild.Index{{Name: "PRIMARY", KeyBytes: int64(nt.Primary.RecordBytes), Clustered: true}}
	dst := []*schema.Index{nt.Primary}
	for _, s := range nt.Secondary {
		idx = append(idx, indexbuild.Index{Name: s.Name, KeyBytes: int64(s.RecordBytes), Fields: entryFields(s.Columns)})
		dst = append(dst, s)
	}
	if !x.Enter("build") {
		return
	}
	obs := newObserver(srv)
	p := newPool(srv, tab, idx, dst, obs, false)
	t.Pay()
	// The row log is the DML on this tablespace from here on: its id is kept, because a
	// statement that overlaps this one may re-create the table (*tab) meanwhile.
	space := tab.Space
	writes0 := srv.SpaceWrites(space)
	spec := buildSpec(srv, tab, idx)
	spec.Rebuild = true // the primary key is unchanged: no sort for the clustered index
	b := indexbuild.Build(t.Proc, p.env(srv), spec)
	addBuildPhases(x.R, b)
	if b.Failed {
		x.Fail(b.Reason)
		return
	}
	if obs != 0 {
		x.Phase("observer_flush", func() server.ScanStats { return srv.FlushPages(t, nsp, obs, version.OpObserverFlush) })
	}
	var writes1 uint64
	overflow := ""
	x.Phase("row_log_apply", func() server.ScanStats {
		writes1 = srv.SpaceWrites(space)
		// row_log_table_*: each change logs the row (ROW_T_INSERT/UPDATE/DELETE)
		if bad, why := rowLogOverflow(srv, writes1-writes0, int64(tab.Primary.RecordBytes), "rebuilding table '"+tab.Name+"'"); bad {
			overflow = why
			return server.ScanStats{}
		}
		rowLogApply(t, nt.Primary, writes1-writes0)
		return server.ScanStats{}
	})
	if overflow != "" {
		x.Fail(overflow)
		return
	}
	// commit_inplace_alter_table under MDL_EXCLUSIVE: swap the tables, then drop the old
	// tablespace.
	if !x.Enter("commit") {
		return
	}
	// The DML logged while the first apply ran and the exclusive lock was awaited.
	x.Phase("row_log_apply_final", func() server.ScanStats {
		rowLogApply(t, nt.Primary, srv.SpaceWrites(space)-writes1)
		return server.ScanStats{}
	})
	x.Phase("rename", func() server.ScanStats {
		x.R.Restarts += uint64(t.RenameSpace(sp.ID) + t.RenameSpace(nsp.ID))
		return server.ScanStats{}
	})
	old := *tab // the old table's shape, for a 5.x drop's page freeing
	*tab = *nt
	nsp.Table = tab
	if srv.Traits.FreePagesOnDrop {
		x.Phase("free_pages", func() server.ScanStats { return maint.FreeTablePages(t, &old) })
	}
	sp.Deleted = true
	x.Phase("drop", func() server.ScanStats { return srv.DropPages(t, sp, version.OpDropTable) })
	x.Phase("stats", func() server.ScanStats { updateStats(t, tab); return server.ScanStats{} })
}
