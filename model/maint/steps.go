package maint

import (
	"errors"
	"fmt"

	"github.com/ddlsim/ddlsim/model/server"
	"github.com/ddlsim/ddlsim/model/version"
)

// Steps are the version table's rows (model/version, docs/innodb-source.md §8) that one policy
// runs for the server's version, one per operation DropPages serves, looked up once when the
// policy is built.
type Steps struct {
	key  version.Policy
	ver  version.V
	rows map[version.Op]version.Row
}

// LoadSteps looks up, for every operation a policy's DropPages serves (server.Ops without
// Flush), the row the server's version runs under key. An operation the version does not have
// at all (version.Has: an undo truncation before 5.7, a session temp tablespace before 8.0.13)
// gets no steps, as the server never runs it; an operation the version has but the table gives
// no row for is an error, so a gap in the table stops the run at load instead of doing
// nothing. Every gap is reported at once.
func LoadSteps(srv *server.Server, key version.Policy) (*Steps, error) {
	st := &Steps{key: key, ver: srv.Ver, rows: map[version.Op]version.Row{}}
	var errs []error
	for _, o := range server.Ops {
		if o.Flush {
			continue
		}
		r, _, ok := version.Path(srv.Ver, key, o.Op)
		if !ok && version.Has(srv.Ver, o.Op) {
			errs = append(errs, fmt.Errorf("version table: no row for %s under %s for %s (docs/innodb-source.md §8)", srv.Ver, key, o.Op))
			continue
		}
		st.rows[o.Op] = r
	}
	if len(errs) > 0 {
		return nil, errors.Join(errs...)
	}
	return st, nil
}

// Of returns op's steps. An operation LoadSteps did not load is a programmer error (a flush
// operation passed to DropPages): it panics.
func (s *Steps) Of(op version.Op) []version.Step {
	r, ok := s.rows[op]
	if !ok {
		panic(fmt.Sprintf("maint: %s steps for %s on %s were not loaded (not a DropPages operation)", s.key, op, s.ver))
	}
	return r.Steps
}

// Run runs op's steps on space sp: first the table-wide ones (btr_drop_ahi_for_table), then
// the ones that walk each instance's lists, instance by instance
// (buf_LRU_flush_or_remove_pages loops over the instances, each doing its walks). FreePages
// belongs to the DDL (model/ddl runs FreeTablePages before the policy) and Lazy does nothing:
// the caller has already marked the space. flush gives the FLUSH_NO_WRITE walk its retry
// sleep.
func (s *Steps) Run(t *server.Thread, sp *server.Space, op version.Op, flush FlushOptions) (st server.ScanStats) {
	steps := s.Of(op)
	for _, step := range steps {
		if step == version.AHITableRounds {
			st.Add(DropAHIForTable(t, sp.ID))
		}
	}
	for _, in := range t.Srv.Inst {
		for _, step := range steps {
			switch step {
			case version.AHILRUWalk:
				st.Add(DropAHIForTablespace(t, in, sp.ID))
			case version.RemoveAllWalk:
				st.Add(RemoveAllPages(t, in, sp.ID))
			case version.FlushNoWrite:
				st.Add(FlushDirtyPages(t, in, FlushTarget{Space: sp.ID}, FlushOptions{RetrySleep: flush.RetrySleep}))
			case version.FlushRemove:
				st.Add(FlushRemovePages(t, in, sp.ID))
			case version.MarkWalk:
				st.Add(MarkSpaceDeleted(t, in, sp.ID))
			case version.ChunkAHIPass:
				st.Add(ChunkAHIPass(t, in, sp.ID))
			}
		}
	}
	return st
}
