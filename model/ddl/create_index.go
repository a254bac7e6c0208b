package ddl

import (
	"github.com/ddlsim/ddlsim/model/config"
	"github.com/ddlsim/ddlsim/model/indexbuild"
	"github.com/ddlsim/ddlsim/model/schema"
	"github.com/ddlsim/ddlsim/model/server"
	"github.com/ddlsim/ddlsim/model/version"
)

// CreateIndex is online ALTER TABLE ... ADD INDEX (row_merge_build_indexes, 8.0.18): one scan
// of the clustered index, sort/merge per index, bulk load under a flush observer, then per
// index the observer flush and the row-log apply, and a last observer flush at the end
// (docs/innodb-source.md §5a).
type CreateIndex struct {
	Columns []string `yaml:"columns"`
	Indexes int      `yaml:"indexes"` // indexes built by the one statement (default 1)
	Engine  string   `yaml:"engine"`  // innodb (default) | myrocks
	// OneAtATime builds the `indexes` with consecutive one-index statements (each rescans
	// the clustered index) instead of one statement building all of them from one scan.
	OneAtATime bool `yaml:"one_at_a_time,omitempty"`
	// Method is how the index is added: native (the server's online ALTER, the default),
	// pt-osc (pt-online-schema-change) or gh-ost, with the tool's options in pt_osc / gh_ost
	// (osc.go, docs/osc.md).
	Method string `yaml:"method,omitempty"`
	PtOSC  *PtOSC `yaml:"pt_osc,omitempty"`
	GhOst  *GhOst `yaml:"gh_ost,omitempty"`
}

// Engines lists the storage engines whose index build is modelled.
var Engines = []string{"innodb", "myrocks"}

func (o *CreateIndex) Defaults(sc *config.Scenario, d config.Defaulter) {
	d.Def("indexes", o.Indexes == 0, func() { o.Indexes = 1 })
	d.Def("engine", o.Engine == "", func() { o.Engine = "innodb" })
	o.oscDefaults(d)
	if o.Engine == "myrocks" {
		// MyRocks' compiled-in defaults (ha_rocksdb.cc RDB_DEFAULT_MERGE_BUF_SIZE,
		// RDB_DEFAULT_MERGE_COMBINE_READ_SIZE), filled in only when a MyRocks build is
		// scheduled so InnoDB-only configurations do not carry them.
		m := &sc.MySQL
		d.DefPath("mysql.rocksdb_merge_buf_size", m.RocksDBMergeBufSize == 0, func() { m.RocksDBMergeBufSize = 64 * config.MiB })
		d.DefPath("mysql.rocksdb_merge_combine_read_size", m.RocksDBMergeCombineReadSize == 0, func() { m.RocksDBMergeCombineReadSize = config.GiB })
	}
}

func (o *CreateIndex) Check(sc *config.Scenario, c *config.Checker) {
	if len(o.Columns) == 0 {
		c.Errorf("columns", nil, "missing: create_index needs columns, e.g. [c]")
	}
	c.Field("indexes", o.Indexes, config.AtLeast(1, "at least 1 index"))
	c.Field("engine", o.Engine, config.OneOf(Engines...))
	o.oscCheck(sc, c)
}

func (o *CreateIndex) Stages() []Stage {
	if o.Method != "" && o.Method != "native" {
		return oscStages()
	}
	return []Stage{
		{Name: "prepare", MDL: server.MDLExclusive},
		{Name: "build", MDL: server.MDLSharedUpgradable, Phases: []string{"scan", "merge", "merge_pass_*", "load", "observer_flush", "row_log_apply"}},
		{Name: "commit", MDL: server.MDLExclusive, Phases: []string{"row_log_apply_final", "stats"}},
	}
}

func (o *CreateIndex) Run(x *Exec) {
	switch o.Method {
	case "pt-osc":
		o.runPtOSC(x)
		return
	case "gh-ost":
		o.runGhOst(x)
		return
	}
	t, srv, tab, sp := x.T, x.Srv, x.Table, x.Space
	n := max(o.Indexes, 1)
	// Each index from its own definition: the table kind's indexes on these columns (the
	// insert benchmark's three), or indexes on o.Columns.
	var idx []indexbuild.Index
	var dst []*schema.Index
	for _, d := range tab.NewIndexes(o.Columns, n) {
		idx = append(idx, indexbuild.Index{Name: d.Name, KeyBytes: int64(d.EntryBytes), Fields: entryFields(d.Columns)})
		ix := schema.NewIndex(tab.Name+"."+d.Name, tab.Space, sp.NextPage, tab.Rows, d.EntryBytes, d.EntryBytes, srv.PageSize)
		ix.Columns = d.Columns
		sp.NextPage += uint32(ix.Pages)
		dst = append(dst, ix)
	}
	// prepare_inplace_alter_table ran under MDL_EXCLUSIVE; the build runs under
	// MDL_SHARED_UPGRADABLE, DML going on.
	if !x.Enter("build") {
		return
	}
	obs := newObserver(srv)
	p := newPool(srv, tab, idx, dst, obs, o.OneAtATime)
	t.Pay()
	// The row log is the DML on this tablespace from here on: its id is kept, because a
	// statement that overlaps this one may re-create the table (*tab) meanwhile.
	space := tab.Space
	writes0 := srv.SpaceWrites(space)
	spec := buildSpec(srv, tab, idx)
	spec.Engine, spec.OneAtATime = o.Engine, o.OneAtATime
	b := indexbuild.Build(t.Proc, p.env(srv), spec)
	addBuildPhases(x.R, b)
	if b.Failed {
		x.Fail(b.Reason)
		return
	}
	applied := make([]uint64, len(dst))
	for i := range dst {
		if obs != 0 {
			x.Phase("observer_flush", func() server.ScanStats { return srv.FlushPages(t, sp, obs, version.OpObserverFlush) })
		}
		overflow := ""
		x.Phase("row_log_apply", func() server.ScanStats {
			applied[i] = srv.SpaceWrites(space)
			if bad, why := rowLogOverflow(srv, applied[i]-writes0, idx[i].KeyBytes, "creating index '"+idx[i].Name+"'"); bad {
				overflow = why // the index was marked corrupt when the log filled: nothing to apply
				return server.ScanStats{}
			}
			rowLogApply(t, dst[i], applied[i]-writes0)
			return server.ScanStats{}
		})
		if overflow != "" {
			x.Fail(overflow)
			return
		}
	}
	if obs != 0 {
		x.Phase("observer_flush", func() server.ScanStats { return srv.FlushPages(t, sp, obs, version.OpObserverFlush) })
	}
	// commit_inplace_alter_table under MDL_EXCLUSIVE (waiting for every open transaction on
	// the table).
	if !x.Enter("commit") {
		return
	}
	// row_log_apply of each index's tail under the exclusive lock (row_merge_...: the DML
	// logged since its first apply), then the new indexes' persistent statistics.
	x.Phase("row_log_apply_final", func() server.ScanStats {
		for i := range dst {
			rowLogApply(t, dst[i], srv.SpaceWrites(space)-applied[i])
		}
		return server.ScanStats{}
	})
	tab.Secondary = append(tab.Secondary, dst...)
	x.Phase("stats", func() server.ScanStats { updateStatsOf(t, dst); return server.ScanStats{} })
}
