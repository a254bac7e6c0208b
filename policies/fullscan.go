package policies

import (
	"github.com/ddlsim/ddlsim/model/bufpool"
	"github.com/ddlsim/ddlsim/model/config"
	"github.com/ddlsim/ddlsim/model/server"
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
	flush server.FlushOptions
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

func fullscanOf(srv *server.Server, params config.Params, name string) Fullscan {
	p := params.(*FullscanParams)
	progress := srv.Scenario.MySQL.AlterTableProgress == nil || *srv.Scenario.MySQL.AlterTableProgress
	return Fullscan{name: name, flush: flushOptions(srv, p), count: opt(p.CountPass, progress)}
}

func newFullscan(srv *server.Server, params config.Params) (server.Policy, error) {
	f := fullscanOf(srv, params, "fullscan")
	return &f, nil
}

func (f *Fullscan) Name() string { return f.name }

func (f *Fullscan) Traits() server.Traits { return server.Traits{} }

func (f *Fullscan) Stale(*server.Instance, bufpool.FrameID) bool { return false }

func (f *Fullscan) DropPages(t *server.Thread, sp *server.Space, op server.Op) server.ScanStats {
	return runSteps(t, sp, path(t, "fullscan", op).Steps, f.flush)
}

func (f *Fullscan) FlushPages(t *server.Thread, sp *server.Space, obs uint16, op server.Op) (st server.ScanStats) {
	return flushScan(t, sp, obs, f.flush, f.count)
}

// flushScan is buf_LRU_flush_or_remove_pages(BUF_REMOVE_FLUSH_WRITE) (and, for an observer,
// FlushObserver::flush around it), shared by fullscan and lazy.
func flushScan(t *server.Thread, sp *server.Space, obs uint16, opt server.FlushOptions, count bool) (st server.ScanStats) {
	if obs != 0 && count {
		for _, in := range t.Srv.Inst {
			st.Add(t.CountObserverPages(in, obs))
		}
	}
	for _, in := range t.Srv.Inst {
		st.Add(t.FlushDirtyPages(in, server.FlushTarget{Space: sp.ID, Observer: obs}, opt))
	}
	if obs != 0 {
		st.Add(t.WaitObserver(obs))
	} else {
		t.WaitPendingWrites()
		t.FsyncData()
	}
	return st
}
