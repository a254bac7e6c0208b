package policies

import (
	"github.com/ddlsim/ddlsim/model/config"
	"github.com/ddlsim/ddlsim/model/maint"
	"github.com/ddlsim/ddlsim/model/server"
	"github.com/ddlsim/ddlsim/model/version"
)

// Fullscan is the community server's scanning code before lazy drop, as the configured version
// runs it: the version table (model/version, docs/innodb-source.md §8) gives each operation's
// steps. For 8.0.18 (the seed's server, docs/innodb-source.md §1, §4, §6):
//   - DROP/TRUNCATE TABLE: btr_drop_ahi_for_table, then BUF_REMOVE_FLUSH_NO_WRITE (a
//     flush-list walk per instance unlinking the space's dirty pages; the LRU keeps the rest);
//   - DISCARD, temp-tablespace and undo truncation: BUF_REMOVE_ALL_NO_WRITE (an AHI walk and a
//     no-yield removal walk of every instance's whole LRU);
//   - FLUSH FOR EXPORT, encryption, observer flushes: BUF_REMOVE_FLUSH_WRITE, restarting from
//     the flush-list tail after every flushed page; the observer first counts its pages with a
//     full flush-list walk.
//
// 5.5 before 5.5.23 invalidates with two LRU walks, 5.5.23 – 5.7 DROP walks the flush list
// only (the pages were freed one by one before), 5.5/5.6 TRUNCATE is ALL_NO_WRITE; on 8.0.23+
// (which is lazy itself) fullscan is the what-if of 8.0.22's scans.
type Fullscan struct {
	name  string
	steps *maint.Steps // the version table's rows under the policy's key, loaded when built
	flush maint.FlushOptions
	count bool
}

// FullscanParams are fullscan's (and lazy's) parameters; a parameter left out takes the
// default its comment gives.
type FullscanParams struct {
	// Restart: after each flushed page the FLUSH_WRITE walk restarts from the tail (8.0.18's
	// `goto rescan`; default: true, except for versions that pin — 8.4, MariaDB). false gives
	// the pin-and-continue walk.
	Restart *bool `yaml:"restart,omitempty"`
	// Yield: buf_flush_try_yield every 1024 pages (default true).
	Yield *bool `yaml:"yield,omitempty"`
	// CountPass: the observer's counting walk before its flush (default: the scenario's
	// mysql.alter_table_progress).
	CountPass *bool `yaml:"count_pass,omitempty"`
}

func (*FullscanParams) Defaults(*config.Scenario, config.Defaulter) {}
func (*FullscanParams) Check(*config.Scenario, *config.Checker)     {}

// fullscanOf builds the scanning code of policy name, whose DropPages runs the version
// table's rows keyed key (fullscan, lazy and percona_lazy differ only there and in FreesStale).
func fullscanOf(srv *server.Server, params config.Params, name string, key version.Policy) (Fullscan, error) {
	p := params.(*FullscanParams)
	progress := srv.Scenario.MySQL.AlterTableProgress == nil || *srv.Scenario.MySQL.AlterTableProgress
	steps, err := maint.LoadSteps(srv, key)
	if err != nil {
		return Fullscan{}, err
	}
	return Fullscan{name: name, steps: steps, flush: flushOptions(srv, p), count: opt(p.CountPass, progress)}, nil
}

func newFullscan(srv *server.Server, params config.Params) (server.Policy, error) {
	f, err := fullscanOf(srv, params, "fullscan", version.PolicyFullscan)
	return &f, err
}

func (f *Fullscan) Name() string { return f.name }

func (f *Fullscan) FreesStale() bool { return false }

func (f *Fullscan) Stale(*server.Space, uint16) bool { return false }

// DropPages runs the version's steps for op (LoadSteps).
func (f *Fullscan) DropPages(t *server.Thread, sp *server.Space, op version.Op) server.ScanStats {
	return f.steps.Run(t, sp, op, f.flush)
}

func (f *Fullscan) FlushPages(t *server.Thread, sp *server.Space, obs uint16, op version.Op) (st server.ScanStats) {
	return flushScan(t, sp, obs, f.flush, f.count)
}

// flushScan is buf_LRU_flush_or_remove_pages(BUF_REMOVE_FLUSH_WRITE) (and, for an observer,
// FlushObserver::flush around it), shared by fullscan and lazy.
func flushScan(t *server.Thread, sp *server.Space, obs uint16, opt maint.FlushOptions, count bool) (st server.ScanStats) {
	if obs != 0 && count {
		for _, in := range t.Srv.Inst {
			st.Add(maint.CountObserverPages(t, in, obs))
		}
	}
	for _, in := range t.Srv.Inst {
		if obs == 0 && t.Srv.Traits.DblwrPipeline {
			// MariaDB: while (buf_flush_list_space(space)), pages batched through the
			// doublewrite pipeline (docs/mariadb-write-path.md §1).
			st.Add(maint.FlushSpaceBatched(t, in, sp.ID))
			continue
		}
		st.Add(maint.FlushDirtyPages(t, in, maint.FlushTarget{Space: sp.ID, Observer: obs}, opt))
	}
	if obs != 0 {
		st.Add(maint.WaitObserver(t, obs))
	} else {
		t.WaitPendingWrites()
		t.FsyncData()
	}
	return st
}
