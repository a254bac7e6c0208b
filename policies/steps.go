package policies

import (
	"github.com/ddlsim/ddlsim/model/server"
	"github.com/ddlsim/ddlsim/model/version"
	"github.com/ddlsim/ddlsim/sim"
)

// path is the version table's row for the server's version, policy name and op
// (model/version, docs/innodb-source.md §8).
func path(t *server.Thread, policy string, op server.Op) version.Row {
	r, _, ok := version.Path(t.Srv.Ver, version.Policy(policy), version.Op(op))
	if !ok {
		return version.Row{}
	}
	return r
}

// runSteps runs a version path's buffer-pool steps: the ones that walk every instance's lists
// instance by instance (buf_LRU_flush_or_remove_pages loops over the instances, each doing its
// walks), after the table-wide ones (btr_drop_ahi_for_table). FreePages belongs to the DDL
// (model/ddl) and Lazy does nothing: the caller has already marked the space.
func runSteps(t *server.Thread, sp *server.Space, steps []version.Step, flush server.FlushOptions) (st server.ScanStats) {
	for _, s := range steps {
		if s == version.AHITableRounds {
			st.Add(t.DropAHIForTable(sp.ID))
		}
	}
	for _, in := range t.Srv.Inst {
		for _, s := range steps {
			switch s {
			case version.AHILRUWalk:
				st.Add(t.DropAHIForTablespace(in, sp.ID))
			case version.RemoveAllWalk:
				st.Add(t.RemoveAllPages(in, sp.ID))
			case version.FlushNoWrite:
				st.Add(t.FlushDirtyPages(in, server.FlushTarget{Space: sp.ID}, server.FlushOptions{RetrySleep: flush.RetrySleep}))
			case version.FlushRemove:
				st.Add(t.FlushRemovePages(in, sp.ID))
			case version.MarkWalk:
				st.Add(t.MarkSpaceDeleted(in, sp.ID))
			case version.ChunkAHIPass:
				st.Add(t.ChunkAHIPass(in, sp.ID))
			}
		}
	}
	return st
}

// flushOptions are the FLUSH_WRITE walk's options for the server's version: restart from
// the tail unless the version pins, the version's retry sleep; restart and yield parameters
// override.
func flushOptions(srv *server.Server, p *FullscanParams) server.FlushOptions {
	tr := srv.Traits
	return server.FlushOptions{Write: true, RestartFromTail: opt(p.Restart, !tr.FlushPinned),
		NoYield: !opt(p.Yield, true), RetrySleep: sim.Time(tr.FlushRetrySleep)}
}
