package policies_test

import (
	"github.com/ddlsim/ddlsim/model/bufpool"
	"github.com/ddlsim/ddlsim/model/config"
	"github.com/ddlsim/ddlsim/model/maint"
	"github.com/ddlsim/ddlsim/model/server"
	"github.com/ddlsim/ddlsim/model/version"
	"github.com/ddlsim/ddlsim/policies"
)

// Deliberately broken policies, for TestConformanceCatchesBrokenPolicies.

type bug int

const (
	bugSkipOne   bug = iota // leaves one target page of each instance alone
	bugNoCPU                // does the work and reports it, charging nothing
	bugNoReport             // does the work, charged, and reports none of it
	bugKeepMutex            // correct, but returns holding an LRU mutex
)

type broken struct{ bug bug }

func (b *broken) Name() string                     { return "broken" }
func (b *broken) FreesStale() bool                 { return false }
func (b *broken) Stale(*server.Space, uint16) bool { return false }

// indexed is the registered indexed policy, for the bugs that wrap a correct one.
func indexed(srv *server.Server) server.Policy {
	f, err := policies.Factory(config.PolicySpec{Name: "indexed"})
	if err != nil {
		panic(err)
	}
	p, err := f(srv)
	if err != nil {
		panic(err)
	}
	return p
}

func (b *broken) DropPages(t *server.Thread, sp *server.Space, op version.Op) (st server.ScanStats) {
	switch b.bug {
	case bugSkipOne:
		for _, in := range t.Srv.Inst {
			pages := maint.CollectPages(t, in, maint.Select{Space: sp.ID}, 0, &st)
			if len(pages) > 0 {
				maint.RemovePages(t, in, pages[1:], &st)
			}
		}
	case bugNoCPU:
		for _, in := range t.Srv.Inst {
			var fs []bufpool.FrameID
			for f := range in.BP.SpaceFrames(sp.ID) {
				fs = append(fs, f)
			}
			for _, f := range fs {
				st.NodesVisited++
				if !in.BP.Blocked(f) {
					in.BP.Remove(f, true)
					st.PagesFreed++
				}
			}
		}
	case bugNoReport:
		indexed(t.Srv).DropPages(t, sp, op)
	case bugKeepMutex:
		st = indexed(t.Srv).DropPages(t, sp, op)
		t.Lock(t.Srv.Inst[0].LRU)
	}
	return st
}

func (b *broken) FlushPages(t *server.Thread, sp *server.Space, obs uint16, op version.Op) (st server.ScanStats) {
	sel := maint.Select{Space: sp.ID, Observer: obs, Dirty: true}
	switch b.bug {
	case bugSkipOne:
		for _, in := range t.Srv.Inst {
			pages := maint.CollectPages(t, in, sel, 0, &st)
			if len(pages) > 0 {
				maint.FlushPageBatch(t, in, pages[1:], sel, &st)
			}
		}
	case bugNoCPU:
		for _, in := range t.Srv.Inst {
			var fs []bufpool.FrameID
			for f := range in.BP.SpaceFrames(sp.ID) {
				fs = append(fs, f)
			}
			for _, f := range fs {
				st.NodesVisited++
				if in.BP.IsDirty(f) && (obs == 0 || in.BP.Observer(f) == obs) {
					in.BP.MarkClean(f) // "written" for free
					st.PagesFlushed++
				}
			}
		}
	case bugNoReport:
		indexed(t.Srv).FlushPages(t, sp, obs, op)
	case bugKeepMutex:
		st = indexed(t.Srv).FlushPages(t, sp, obs, op)
		t.Lock(t.Srv.Inst[0].LRU)
	}
	return st
}
