package ddl

import (
	"github.com/ddlsim/ddlsim/model/config"
	"github.com/ddlsim/ddlsim/model/indexbuild"
	"github.com/ddlsim/ddlsim/model/schema"
	"github.com/ddlsim/ddlsim/model/server"
)

// OptimizeTable is OPTIMIZE TABLE / ALTER TABLE ... FORCE (8.0.18, docs/innodb-source.md §5a):
// every index built into a new tablespace under one observer (the clustered index loaded
// straight from the scan, skip_pk_sort), one observer flush, the table row-log apply, then the
// old tablespace dropped through the policy as DROP TABLE drops one.
//
// Left out (bounded at tenths of a second under the seed's load, docs/innodb-source.md §5a):
// the two Fil_shard::space_rename calls, the second row_log_table_apply under the exclusive
// MDL, statistics and the unlink.
type OptimizeTable struct {
	config.NoParams `yaml:"-"`
}

func (o *OptimizeTable) Stages() []Stage {
	return []Stage{
		{Name: "prepare", MDL: server.MDLExclusive},
		{Name: "build", MDL: server.MDLSharedUpgradable, Phases: []string{"scan", "merge", "merge_pass_*", "load", "observer_flush", "row_log_apply"}},
		{Name: "commit", MDL: server.MDLExclusive, Phases: []string{"free_pages", "drop"}},
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
	b := indexbuild.Build(t.P, p.env(srv), spec)
	addBuildPhases(x.R, b)
	if b.Failed {
		x.Fail(b.Reason)
		return
	}
	if obs != 0 {
		x.Phase("observer_flush", func() server.ScanStats { return srv.FlushPages(t, nsp, obs, server.OpObserverFlush) })
	}
	x.Phase("row_log_apply", func() server.ScanStats {
		rowLogApply(t, nt.Primary, srv.SpaceWrites(space)-writes0)
		return server.ScanStats{}
	})
	// commit_inplace_alter_table under MDL_EXCLUSIVE: swap the tables, then drop the old
	// tablespace.
	if !x.Enter("commit") {
		return
	}
	old := *tab // the old table's shape, for a 5.x drop's page freeing
	*tab = *nt
	nsp.Table = tab
	if srv.Traits.FreePagesOnDrop {
		x.Phase("free_pages", func() server.ScanStats { return t.FreeTablePages(&old) })
	}
	sp.Deleted = true
	x.Phase("drop", func() server.ScanStats { return srv.DropPages(t, sp, server.OpDropTable) })
}
