package ddl

import (
	"fmt"

	"github.com/ddlsim/ddlsim/model/schema"
	"github.com/ddlsim/ddlsim/model/server"
	"github.com/ddlsim/ddlsim/sim"
)

// The copy tools' throttles (docs/osc.md §3.4, §4.4), on the server's Threads_running gauge
// (server.Thread.ThreadsRunning: what SHOW GLOBAL STATUS LIKE 'Threads_running' returns on
// the tool's own connection, which counts itself).

// pause is one interval in which a tool's copy was held back by its throttle.
type pause struct{ From, To sim.Time }

// idleSleep is a sleep of the tool's connection between its statements: it is not running
// a command meanwhile (Threads_running).
func idleSleep(t *server.Thread, d sim.Time) {
	t.StatementEnd()
	t.Sleep(d)
	t.StatementStart()
}

// ptLoadWait is pt-online-schema-change's MySQLStatusWaiter::wait after a chunk
// (percona-toolkit 8d0f14c1 bin/pt-online-schema-change:5434-5496, called from the
// after_nibble callback at :10141-10144 before --sleep): it reads Threads_running; at or
// above critical_load the tool dies (returns the value and false); at or above max_load it
// calls the sleep callback (:9073-9088: SELECT 'pt-online-schema-change keepalive', then
// sleep --check-interval) and reads again, until the value is below max_load. The first
// reading's round trip is among the chunk's statements (copyChunk's extra).
func ptLoadWait(t *server.Thread, p *PtOSC, st *OSCStats) (int64, bool) {
	var from sim.Time
	paused := false
	for {
		v := t.ThreadsRunning()
		if v > 0 && v >= int64(p.CriticalLoad) {
			if paused {
				st.Pauses = append(st.Pauses, pause{from, t.Now()})
			}
			return v, false
		}
		if v == 0 || v < int64(p.MaxLoad) {
			if paused {
				st.Pauses = append(st.Pauses, pause{from, t.Now()})
				st.Throttled += t.Now() - from
			}
			return v, true
		}
		if !paused {
			paused, from = true, t.Now()
		}
		roundTrip(t, 1) // SELECT 'pt-online-schema-change keepalive'
		idleSleep(t, sim.Time(p.CheckInterval))
		roundTrip(t, 1) // SHOW GLOBAL STATUS LIKE 'Threads_running'
	}
}

// ptAbort is pt-osc's failure path after its copy died (docs/osc.md §3.1): the cleanup
// tasks drop the three triggers (each DROP TRIGGER an exclusive metadata lock on the
// table, with its tries) and, --drop-new-table being the default, the partly copied new
// table through DROP TABLE's own path.
func ptAbort(x *Exec, sh *shadow, p *PtOSC, reason string) {
	t, tab := x.T, x.Table
	x.Fail(reason)
	x.Phase("cleanup", func() server.ScanStats {
		for i := 0; i < 3; i++ {
			roundTrip(t, 1)
			if lockTable(t, tab, p.Tries, sim.Time(p.LockWaitTimeout)) {
				x.Srv.SetTrigger(tab, nil)
				t.ReleaseMDL(tab, server.MDLExclusive)
			}
		}
		return server.ScanStats{}
	})
	y := &Exec{T: t, Srv: x.Srv, Ev: x.Ev, Table: sh.tab, Space: sh.sp, R: x.R}
	(&DropTable{}).Run(y)
}

// ghThrottler is gh-ost's throttler on the primary (github/gh-ost 145799ee
// go/logic/throttler.go), run by three threads of the tool while it migrates:
//   - the heartbeat (applier.go:941-990, InitiateHeartbeat): every heartbeat interval an
//     INSERT ... ON DUPLICATE KEY UPDATE of the changelog row with the time it is issued,
//     a binlogged transaction of its own, the next one only after it commits;
//   - the lag and load collectors: every heartbeat interval the changelog's heartbeat is
//     read back (collectReplicationLag, :146-186; on the primary the lag is the time since
//     that heartbeat was issued), every second Threads_running is read for --critical-load
//     (abort, or a second check after --critical-load-interval-millis) and --max-load
//     (collectGeneralThrottleMetrics, :358-451);
//   - the decision every 100 ms (initiateThrottlerChecks, :501-539; shouldThrottle,
//     :89-122): throttled while the last max-load reading was at or above it or the lag is
//     above --max-lag-millis.
//
// The write loop (migrator.go:1911-1924, executeWriteFuncs) calls throttle before each
// event batch or chunk: while throttled it sleeps 250 ms and looks again (:541-560).
type ghThrottler struct {
	g         *GhOst
	srv       *server.Server
	ghc       *schema.Table // the changelog table _T_ghc (one row per hint)
	page      schema.PageID
	made      bool
	heartbeat sim.Time // the value of the last heartbeat committed: when it was issued
	lag       sim.Time // CurrentLag
	load      bool     // the last max-load check met it
	throttled bool
	abort     string // critical-load met: the migration aborts
	done      bool
}

func newGhThrottler(x *Exec, g *GhOst) *ghThrottler {
	sp := x.Srv.Spaces.New("_" + x.Table.Name + "_ghc")
	ghc := &schema.Table{Name: "_" + x.Table.Name + "_ghc", Space: sp.ID, RowBytes: 100}
	sp.Table = ghc
	th := &ghThrottler{g: g, srv: x.Srv, ghc: ghc, page: schema.MakePageID(sp.ID, 0), heartbeat: x.T.Now()}
	name := x.T.Proc.Name()
	x.Srv.Spawn(name+":heartbeat", "osc", th.heartbeatLoop)
	x.Srv.Spawn(name+":throttler", "osc", th.collectLoop)
	return th
}

// tick sleeps t to the next multiple of d since start (a Go ticker drops the ticks a slow
// receiver missed); false once the migration is done.
func (th *ghThrottler) tick(t *server.Thread, start, d sim.Time) bool {
	n := (t.Now()-start)/d + 1
	idleSleep(t, start+n*d-t.Now())
	return !th.done
}

func (th *ghThrottler) heartbeatLoop(t *server.Thread) {
	t.StatementStart() // a connection of the tool
	defer t.StatementGone()
	start, d := t.Now(), sim.Time(th.g.HeartbeatInterval)
	for {
		issued := t.Now()
		roundTrip(t, 1)
		t.LogFreeCheck()
		if !th.made {
			th.made = true
			t.NewPage(th.page)
		} else {
			t.Write(th.page)
		}
		t.LogRows(th.ghc, 1)
		t.CommitWait()
		t.Pay()
		th.heartbeat = max(th.heartbeat, issued)
		if !th.tick(t, start, d) {
			return
		}
	}
}

func (th *ghThrottler) collectLoop(t *server.Thread) {
	t.StatementStart()
	defer t.StatementGone()
	g := th.g
	start, hb := t.Now(), sim.Time(g.HeartbeatInterval)
	nextHB, nextLoad := start, start
	var recheck sim.Time // a critical-load second check due (critical_load_interval)
	for !th.done {
		now := t.Now()
		if now >= nextHB {
			roundTrip(t, 1) // SELECT value FROM _T_ghc WHERE hint = 'heartbeat'
			th.lag = t.Now() - th.heartbeat
			nextHB = now + hb
		}
		if recheck > 0 && now >= recheck {
			recheck = 0
			if v := th.status(t); g.CriticalLoad > 0 && v >= int64(g.CriticalLoad) {
				th.abort = fmt.Sprintf("critical-load met again after %d millis: Threads_running=%d, >=%d",
					sim.Time(g.CriticalLoadInterval)/sim.Millisecond, v, g.CriticalLoad)
			}
		}
		if now >= nextLoad {
			nextLoad = now + sim.Second
			v := int64(-1)
			if g.CriticalLoad > 0 {
				v = th.status(t)
				if v >= int64(g.CriticalLoad) {
					if g.CriticalLoadInterval == 0 {
						th.abort = fmt.Sprintf("critical-load met: Threads_running=%d, >=%d", v, g.CriticalLoad)
					} else if recheck == 0 {
						recheck = t.Now() + sim.Time(g.CriticalLoadInterval)
					}
				}
			}
			if g.MaxLoad > 0 {
				if v < 0 {
					v = th.status(t)
				}
				th.load = v >= int64(g.MaxLoad)
			} else {
				th.load = false
			}
		}
		th.throttled = th.load || th.lag > sim.Time(g.MaxLagMillis)
		th.tick(t, start, 100*sim.Millisecond)
	}
}

// status is SHOW GLOBAL STATUS LIKE 'Threads_running' on the tool's connection.
func (th *ghThrottler) status(t *server.Thread) int64 {
	roundTrip(t, 1)
	return t.ThreadsRunning()
}

// wait is the write loop's throttle(): it returns once not throttled (or aborting).
func (th *ghThrottler) wait(t *server.Thread, st *OSCStats) {
	if !th.throttled || th.abort != "" {
		return
	}
	from := t.Now()
	for th.throttled && th.abort == "" {
		idleSleep(t, 250*sim.Millisecond)
	}
	st.Pauses = append(st.Pauses, pause{from, t.Now()})
	st.Throttled += t.Now() - from
}
