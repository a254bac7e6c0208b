package workload

import (
	"fmt"

	"gonum.org/v1/gonum/stat"

	"github.com/ddlsim/ddlsim/model/config"
	"github.com/ddlsim/ddlsim/model/ddl"
	"github.com/ddlsim/ddlsim/model/metrics"
	"github.com/ddlsim/ddlsim/model/schema"
	"github.com/ddlsim/ddlsim/model/server"
	"github.com/ddlsim/ddlsim/sim"
)

// TempTableConnections is the `temp_table_connections:` workload block: clients looping
// connect, a statement that materializes an internal temp table, disconnect.
type TempTableConnections struct {
	Threads  int             `yaml:"threads"`
	TempRows config.Count    `yaml:"temp_rows"` // rows materialized per statement
	Think    config.Duration `yaml:"think"`     // client-side time between connections
	Start    config.Duration `yaml:"start"`
	Stop     config.Duration `yaml:"stop"` // 0 = until the end
}

func (p *TempTableConnections) Defaults(sc *config.Scenario, d config.Defaulter) {
	d.Def("threads", p.Threads == 0, func() { p.Threads = 1 })
}

func (p *TempTableConnections) Check(sc *config.Scenario, c *config.Checker) {
	c.Field("threads", p.Threads, config.AtLeast(1, "at least 1 thread"))
	c.Field("temp_rows", p.TempRows, config.Positive)
	c.Field("think", p.Think, config.AtLeast(0, "a duration >= 0"))
	c.Field("start", p.Start, config.AtLeast(0, "a duration >= 0"))
	c.Field("stop", p.Stop, config.AtLeast(0, "a duration >= 0 (0 = until the end)"))
	c.Start(sc, "start", p.Start)
	if p.Stop != 0 && p.Stop <= p.Start {
		c.Errorf("stop", []string{c.Path("start")}, "expected stop after start (%s)", p.Start)
	}
}

// tempRowBytes: a GROUP BY / information_schema temp-table row, ~100 bytes.
const tempRowBytes = 100

// Session temporary tablespaces (srv/srv0tmp.cc, 8.0.13+): a pool of .ibt files created at
// startup (POOL_INITIAL_SIZE) and grown by POOL_EXPAND_SIZE under the pool mutex when a session
// finds it empty; a file starts at FIL_IBT_FILE_INITIAL_SIZE pages.
const (
	ibtPoolInitial = 10
	ibtPoolExpand  = 10
	ibtInitialSize = 5
)

// ibtPool is ibt::Tablespace_pool.
type ibtPool struct {
	srv  *server.Server
	mu   *sim.Mutex // Tablespace_pool::m_mutex
	free []*server.Space
	n    int
	// Created counts tablespaces created after startup (each cost a FLUSH_WRITE scan).
	created int
}

func newIBTPool(srv *server.Server) *ibtPool {
	p := &ibtPool{srv: srv, mu: srv.NewMutex("ibt_pool_mutex")}
	for range ibtPoolInitial {
		p.free = append(p.free, p.newSpace())
	}
	return p
}

func (p *ibtPool) newSpace() *server.Space {
	p.n++
	sp := p.srv.Spaces.New(fmt.Sprintf("innodb_temporary.ibt_%d", p.n))
	sp.Temp = true
	sp.NextPage = 3 // fsp header, ibuf bitmap, inode: the data pages come after
	return sp
}

// get is Tablespace_pool::get: a free tablespace for a session's first temp table, expanding
// the pool (under its mutex) when none is free. Tablespace::create makes the file and then
// calls buf_LRU_flush_or_remove_pages(space, BUF_REMOVE_FLUSH_WRITE): a full flush-list scan
// under fullscan, although the new space has no pages.
func (p *ibtPool) get(t *server.Thread) *server.Space {
	s := p.srv
	t.Lock(p.mu)
	if len(p.free) == 0 {
		for range ibtPoolExpand {
			sp := p.newSpace()
			t.Charge(s.Costs.PageWriteCPU)
			t.IO(s.Temp, sim.Write, ibtInitialSize*s.PageSize) // fil_ibt_create: write the initial pages
			t.IO(s.Temp, sim.Sync, 0)
			ddl.TempCreate(t, sp)
			p.free = append(p.free, sp)
			p.created++
		}
	}
	sp := p.free[len(p.free)-1]
	p.free = p.free[:len(p.free)-1]
	t.Unlock(p.mu)
	return sp
}

// put is the end of Tablespace_pool::free_ts: back to the free list.
func (p *ibtPool) put(t *server.Thread, sp *server.Space) {
	t.Lock(p.mu)
	p.free = append(p.free, sp)
	t.Unlock(p.mu)
}

// Launch spawns clients that loop connect → a statement that materializes an InnoDB internal
// temp table in the session's temporary tablespace → disconnect.
//
// The disconnect is asynchronous, as in MySQL: the client sends COM_QUIT, closes its socket and
// opens the next connection at once, while the old connection's server thread cleans the
// session up. The cleanup truncates the session temp tablespace when the session extended it
// (srv0tmp.cc Tablespace_pool::free_ts → fil_truncate_tablespace, ddl.TempTruncate), which is
// where the policies differ; only then does the tablespace go back to the pool. A client
// looping faster than the truncations finish therefore piles up concurrent cleanups, and the
// pool grows.
func (cfg *TempTableConnections) Launch(env Env) (Running, error) {
	srv := env.Srv
	// Unlike the client loads, a connection loop with start 0 starts at the end of warmup,
	// not during it: its stall is what is measured.
	startAt, stopAt := env.Warm+sim.Time(cfg.Start), sim.Time(0)
	if cfg.Stop > 0 {
		stopAt = env.Warm + sim.Time(cfg.Stop)
	}
	rows := int64(cfg.TempRows)
	perPage := (srv.PageSize - 120) * 15 / 16 / (tempRowBytes + 5)
	pages := (rows + perPage - 1) / perPage
	pool := newIBTPool(srv)
	cleanup := func(sp *server.Space) func(t *server.Thread) {
		return func(t *server.Thread) {
			defer func() { srv.Stats.TempClosing-- }()
			if sp.NextPage > ibtInitialSize { // the session extended the file
				ddl.TempTruncate(t, sp)
			}
			pool.put(t, sp)
		}
	}
	for i := 0; i < cfg.Threads; i++ {
		name := fmt.Sprintf("temp_conn[%d]", i)
		srv.Spawn(name, "temp", func(t *server.Thread) {
			if startAt > t.Now() {
				t.Sleep(startAt - t.Now())
			}
			co := &srv.Costs
			for n := 0; stopAt == 0 || t.Now() < stopAt; n++ {
				t.Charge(co.Connect)
				srv.Stats.Connects++
				t.Charge(co.Statement + co.Path.StatementSys + sim.Time(rows)*co.TempTableRow)
				sp := pool.get(t)
				for p := int64(0); p < pages; p++ {
					t.NewPage(schema.MakePageID(sp.ID, sp.NextPage))
					sp.NextPage++
				}
				for p := int64(0); p < pages; p++ {
					t.Read(schema.MakePageID(sp.ID, uint32(3+p)))
				}
				srv.Stats.Reads++
				t.Pay()
				// Disconnect: the session's server thread cleans up on its own.
				srv.Stats.TempClosing++
				srv.Spawn(fmt.Sprintf("%s.session[%d].cleanup", name, n), "temp", cleanup(sp))
				// The client's side of a connection: TCP handshake, server greeting, auth
				// exchange and the statement itself are round trips (4 × client_rtt), then
				// its own think time; the server's connect CPU is charged above.
				t.Sleep(4*sim.Time(srv.Scenario.HardwareProfile.ClientRTT) + sim.Time(cfg.Think))
			}
		})
	}
	return tempLoop{start: sim.Time(cfg.Start).Seconds()}, nil
}

// tempLoop is a started connection loop; its summary compares the traffic before the loop
// starts with the traffic while it runs (the seed's temp-table test).
type tempLoop struct{ start float64 }

func (l tempLoop) Summary(s *metrics.Series, interval float64) metrics.Summary {
	if l.start <= 0 {
		return nil
	}
	var before, during, tb, td []float64
	ic, tc := s.Col("iud_per_s"), s.Col("tps")
	for _, row := range s.Rows {
		switch {
		case row[0] <= l.start:
			before, tb = append(before, row[ic]), append(tb, row[tc])
		case row[0]-interval >= l.start:
			during, td = append(during, row[ic]), append(td, row[tc])
		}
	}
	if len(before) == 0 || len(during) == 0 {
		return nil
	}
	vals := []float64{stat.Mean(before, nil), stat.Mean(during, nil), stat.Mean(during, nil) / stat.Mean(before, nil),
		stat.Mean(td, nil) / stat.Mean(tb, nil)}
	var sum metrics.Summary
	for i, n := range tempLoopSummary {
		sum = append(sum, metrics.Metric{Name: n, Value: vals[i]})
	}
	return sum
}

// tempLoopSummary names the loop's summary metrics, in order: the iud/s before the loop and
// while it runs, their ratio, and the ratio of the TPS.
var tempLoopSummary = []string{"temp_loop_baseline_iud_per_s", "temp_loop_iud_per_s", "temp_loop_iud_ratio", "temp_loop_tps_ratio"}

// SummaryNames are the summary metrics a started loop may add (SummaryNamer): none when it
// starts with the run, as it then has no traffic before it to compare with.
func (p *TempTableConnections) SummaryNames() []string {
	if p.Start <= 0 {
		return nil
	}
	return tempLoopSummary
}
