package policies_test

// The conformance suite: every registered policy × every operation a policy serves
// (server.Ops), on small randomized pools, against the contract of docs/policies.md. A policy
// added to the registry gets it for free. Each case builds a warm pool through runner.Build,
// makes a random share of it dirty, gives some target pages AHI entries and tags some with a
// flush observer, then runs the one policy call on a DDL thread while two other threads
// make it contend: a churn thread that reads and writes resident pages of other tablespaces
// (lookups and make-young under the LRU mutex, flush-list inserts under the flush-list
// mutex) and a fixer that buffer-fixes a few target pages for a few milliseconds (so the
// io-fix / buffer-fix protocol and the retry paths are exercised). The churn never reads a
// page that is not resident, so only the policy's own thread frees target pages.
//
// After the call returns, at that instant:
//   - DropPages: no dirty page of the space remains unless the policy reports it stale; for
//     an operation whose space id lives on (discard, temp and undo truncation), no page of
//     it remains at all unless stale; a stale page met by a lookup is freed, not returned;
//   - FlushPages: no dirty target page (of the space, or tagged with the observer) remains;
//   - the work is charged: CPU charged >= nodes visited × list_node + pages freed × page_free
//     + pages written × page_flush_cpu, and the nodes visited are at least the pages the call
//     freed, cleaned or wrote (a page is reached before it is touched);
//   - the calling thread holds no mutex; bufpool.Check is clean on every instance.

import (
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/ddlsim/ddlsim/model/bufpool"
	"github.com/ddlsim/ddlsim/model/config"
	"github.com/ddlsim/ddlsim/model/runner"
	"github.com/ddlsim/ddlsim/model/schema"
	"github.com/ddlsim/ddlsim/model/server"
	"github.com/ddlsim/ddlsim/model/version"
	"github.com/ddlsim/ddlsim/policies"
	"github.com/ddlsim/ddlsim/sim"
)

// exercised counts the suite's rarer paths, so TestConformance can show it reached them.
var exercised struct{ staleLookups, retries, yields int }

func TestConformance(t *testing.T) {
	exercised.staleLookups, exercised.retries, exercised.yields = 0, 0, 0
	defer func() {
		if exercised.staleLookups == 0 || exercised.retries == 0 || exercised.yields == 0 {
			t.Errorf("paths not exercised: stale lookups %d, retry sleeps %d, yields %d", exercised.staleLookups, exercised.retries, exercised.yields)
		}
	}()
	for _, name := range policies.Names() {
		for _, op := range server.Ops {
			for seed := uint64(1); seed <= 3; seed++ {
				t.Run(fmt.Sprintf("%s/%s/%d", name, op.Op, seed), func(t *testing.T) {
					for _, v := range conformance(t, name, nil, op, seed) {
						t.Error(v)
					}
				})
			}
		}
	}
}

// TestConformanceCatchesBrokenPolicies: the suite fails a policy that skips one page, one
// that does its work without charging for it, one that reports no work, and one that
// returns holding a mutex.
func TestConformanceCatchesBrokenPolicies(t *testing.T) {
	for _, b := range []struct {
		name string
		bug  bug
		want string // a substring of some violation, for some operation
	}{
		{"skips one page", bugSkipOne, "remain"},
		{"charges no CPU", bugNoCPU, "CPU charged"},
		{"reports no work", bugNoReport, "nodes visited"},
		{"keeps a mutex", bugKeepMutex, "still holds"},
	} {
		t.Run(b.name, func(t *testing.T) {
			caught := 0
			var seen []string
			for _, op := range server.Ops {
				factory := func(srv *server.Server) (server.Policy, error) { return &broken{bug: b.bug}, nil }
				for _, v := range conformance(t, "broken", factory, op, 1) {
					seen = append(seen, v)
					if strings.Contains(v, b.want) {
						caught++
					}
				}
			}
			if caught == 0 {
				t.Errorf("the suite did not catch a policy that %s; violations seen: %q", b.name, seen)
			}
		})
	}
}

const conformanceYAML = `
name: conformance
seed: %d
hardware: profiles/8c-64g.yaml
mysql:
  version: "8.0.18"
  innodb_buffer_pool_size: %s
  innodb_buffer_pool_instances: %d
  innodb_adaptive_hash_index: %v
policy: %s
data:
  - {name: sb, tables: 4, rows: %s}
warm: {fill: 0.97}
warmup: 0s
duration: 1s
`

// conformance runs one case and returns its violations. factory, when set, builds the policy
// under test (for unregistered ones); name is then only a label.
func conformance(t *testing.T, name string, factory server.PolicyFactory, op server.OpSpec, seed uint64) []string {
	t.Helper()
	r := rand.New(rand.NewPCG(seed, uint64(len(op.Op))))
	pool, inst, rows := "48MiB", 1, "60k"
	if r.IntN(2) == 0 {
		pool, inst, rows = "1GiB", 2, "250k"
	}
	policy := name
	if factory != nil {
		policy = "fullscan" // the scenario must name a registered one; factory replaces it
	}
	y := fmt.Sprintf(conformanceYAML, seed, pool, inst, r.IntN(4) != 0, policy, rows)
	sc, err := config.LoadBytes("conformance.yaml", []byte(y), "../scenarios")
	if err != nil {
		t.Fatal(err)
	}
	m, err := runner.Build(sc, runner.BuildOptions{Policy: factory})
	if err != nil {
		t.Fatal(err)
	}
	defer m.Close()
	srv := m.Server
	costs := srv.Costs

	// The target: one table's space (or, for temp_create, a new empty one).
	sp := srv.Spaces.Get(srv.Tables[r.IntN(len(srv.Tables))].Space)
	if op.Op == version.OpTempCreate {
		sp = srv.Spaces.New("temp.ibt")
		sp.Temp = true
	}
	obs := uint16(0)
	if op.Op == version.OpObserverFlush {
		obs = srv.NewObserver()
	}
	randomize(srv, r, sp.ID, obs)

	before := takeCensus(srv, sp.ID, obs)
	var st server.ScanStats
	var cpu sim.Time
	var th *server.Thread
	done := false
	th = srv.Spawn("ddl", "ddl", func(t *server.Thread) {
		th = t
		t.Sleep(sim.Millisecond) // let the churn and the fixer start
		c0 := t.Charged()
		switch {
		case op.Flush:
			st = srv.FlushPages(t, sp, obs, op.Op)
		default:
			if op.SpaceLives {
				sp.Version++
			} else {
				sp.Deleted = true
			}
			st = srv.DropPages(t, sp, op.Op)
		}
		cpu = t.Charged() - c0
		done = true
		m.Sim.Stop()
	})
	srv.Spawn("churn", "fg", churn(srv, r.Uint64(), sp.ID, &done))
	srv.Spawn("fixer", "fg", fixer(srv, r.Uint64(), sp.ID, &done))
	m.Sim.Run(600 * sim.Second)

	var out []string
	bad := func(format string, args ...any) { out = append(out, fmt.Sprintf(format, args...)) }
	if !done {
		return []string{"the call did not return within 600 s of virtual time"}
	}
	exercised.retries += int(st.Sleeps)
	exercised.yields += int(st.Yields)
	for _, mu := range srv.Mutexes() {
		if mu.Holder() == th.Proc {
			bad("returned and still holds %s", mu.Name())
		}
	}
	if err := srv.CheckInvariants(); err != nil {
		bad("pool invariants: %v", err)
	}
	after := takeCensus(srv, sp.ID, obs)
	frees := srv.PolicyFreesStale()
	switch {
	case op.Flush && obs != 0 && after.observerDirty > 0:
		bad("%d dirty pages of the flush observer remain", after.observerDirty)
	case op.Flush && obs == 0 && after.liveDirty > 0:
		bad("%d dirty pages of the space remain", after.liveDirty)
	case !op.Flush && after.liveDirty > 0:
		bad("%d dirty pages of the dropped space remain, not stale", after.liveDirty)
	case !op.Flush && op.SpaceLives && after.live > 0:
		bad("%d pages of the truncated space remain, not stale", after.live)
	}
	if after.stale > 0 && !frees {
		bad("%d pages are stale under a policy whose Traits say it frees none", after.stale)
	}
	// The work done, independently of what the policy reports: pages of the target that left
	// the pool, and pages that were dirty and are now clean.
	freed, cleaned := 0, 0
	for id, wasDirty := range before.pages {
		isDirty, ok := after.pages[id]
		switch {
		case !ok:
			freed++
		case wasDirty && !isDirty:
			cleaned++
		}
	}
	written := after.written - before.written
	if min := uint64(freed + cleaned); st.NodesVisited < min {
		bad("nodes visited %d < pages the call freed or cleaned (%d freed, %d cleaned)", st.NodesVisited, freed, cleaned)
	}
	want := sim.Time(st.NodesVisited)*costs.ListNode + sim.Time(freed)*costs.PageFree + sim.Time(written)*costs.PageFlushCPU
	if cpu < want {
		bad("CPU charged %v < %d nodes visited × list_node + %d freed × page_free + %d written × page_flush_cpu = %v",
			cpu, st.NodesVisited, freed, written, want)
	}
	// A stale page met by a lookup is freed and not returned.
	if after.stale > 0 {
		if f, in := staleFrame(srv, sp.ID); f != bufpool.Nil {
			key := in.BP.Key(f)
			freed0 := srv.Stats.StalePagesFreed
			srv.Spawn("reader", "fg", func(t *server.Thread) { t.Read(pageID(key)) })
			m.Sim.Run(m.Sim.Now() + sim.Second)
			exercised.staleLookups++
			if srv.Stats.StalePagesFreed == freed0 {
				bad("a lookup of stale page %v did not free it", key)
			}
		}
	}
	return out
}

// census is what the pool holds of one target.
type census struct {
	pages                  map[bufpool.PageID]bool // resident pages of the space: dirty?
	live, liveDirty, stale int                     // not stale: resident, dirty; stale: resident
	observerDirty          int
	written                uint64 // server-wide pages written so far
}

func takeCensus(srv *server.Server, space uint32, obs uint16) census {
	c := census{pages: map[bufpool.PageID]bool{}}
	for _, in := range srv.Inst {
		bp := in.BP
		for f := range bp.SpaceFrames(space) {
			c.pages[bp.Key(f)] = bp.IsDirty(f)
			if srv.Stale(in, f) {
				c.stale++
				continue
			}
			c.live++
			if bp.IsDirty(f) {
				c.liveDirty++
			}
		}
		c.observerDirty += bp.ObserverDirty(obs)
	}
	c.written = srv.Stats.PagesWritten
	return c
}

// pageID is a pool key as the server's page identifier.
func pageID(k bufpool.PageID) schema.PageID { return schema.PageID(k) }

func staleFrame(srv *server.Server, space uint32) (bufpool.FrameID, *server.Instance) {
	for _, in := range srv.Inst {
		for f := range in.BP.SpaceFrames(space) {
			if srv.Stale(in, f) && !in.BP.Blocked(f) {
				return f, in
			}
		}
	}
	return bufpool.Nil, nil
}

// randomize dirties a random third of every instance's pages (in random order, so the flush
// list interleaves the spaces), tags half of the target's dirty pages with obs, and gives
// some of the target's pages AHI entries.
func randomize(srv *server.Server, r *rand.Rand, space uint32, obs uint16) {
	for _, in := range srv.Inst {
		bp := in.BP
		var frames []bufpool.FrameID
		for f := bp.LRUTail(); f != bufpool.Nil; f = bp.LRUPrev(f) {
			frames = append(frames, f)
		}
		r.Shuffle(len(frames), func(i, j int) { frames[i], frames[j] = frames[j], frames[i] })
		for i, f := range frames {
			target := bp.Key(f).Space() == space
			if target && srv.AHI {
				bp.SetAHI(f, r.IntN(5) == 0)
			}
			if i%3 != 0 {
				continue
			}
			if obs != 0 && target && r.IntN(2) == 0 {
				bp.SetObserver(f, obs)
			}
			bp.MarkDirty(f, srv.Redo.Advance(1)) // LSN order = flush-list order, as for writers
		}
	}
}

// churn reads and writes resident pages of spaces other than target until done: lookups
// (make-young under the LRU mutex) and flush-list inserts (flush-list mutex), never a miss.
func churn(srv *server.Server, seed uint64, target uint32, done *bool) func(t *server.Thread) {
	return func(t *server.Thread) {
		r := rand.New(rand.NewPCG(seed, 3))
		for !*done {
			t.Sleep(sim.Time(5+r.IntN(50)) * sim.Microsecond)
			in := srv.Inst[r.IntN(len(srv.Inst))]
			f := randomFrame(in.BP, r)
			if f == bufpool.Nil || in.BP.Key(f).Space() == target || in.BP.IOFix(f) != bufpool.IONone {
				continue
			}
			id := pageID(in.BP.Key(f))
			if r.IntN(3) == 0 {
				t.Write(id)
			} else {
				t.Read(id)
			}
		}
	}
}

// fixer buffer-fixes a random target page for 1-5 ms now and then, as a thread reading it
// would, until done.
func fixer(srv *server.Server, seed uint64, target uint32, done *bool) func(t *server.Thread) {
	return func(t *server.Thread) {
		r := rand.New(rand.NewPCG(seed, 4))
		for n := 0; !*done && n < 20; n++ {
			t.Sleep(sim.Time(r.IntN(4000)) * sim.Microsecond)
			in := srv.Inst[r.IntN(len(srv.Inst))]
			var pick bufpool.FrameID = bufpool.Nil
			k := 0
			for f := range in.BP.SpaceFrames(target) {
				if k++; r.IntN(k) == 0 && !in.BP.Blocked(f) {
					pick = f
				}
			}
			if pick == bufpool.Nil {
				continue
			}
			in.BP.Fix(pick)
			t.Sleep(sim.Time(1+r.IntN(5)) * sim.Millisecond)
			in.BP.Unfix(pick)
		}
	}
}

func randomFrame(bp *bufpool.Instance, r *rand.Rand) bufpool.FrameID {
	f := bufpool.FrameID(r.IntN(bp.Frames()))
	if !bp.InLRU(f) {
		return bufpool.Nil
	}
	return f
}
