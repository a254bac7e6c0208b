package workload

import (
	"fmt"

	"github.com/ddlsim/ddlsim/model/config"
	"github.com/ddlsim/ddlsim/model/schema"
	"github.com/ddlsim/ddlsim/model/server"
	"github.com/ddlsim/ddlsim/sim"
)

// LongTransaction is the `long_transaction:` workload block: one client connection that, at
// start, begins a transaction, reads `rows` rows of a table by primary key (SELECT ... WHERE
// id = ?) — or updates them with `write: on` — and then stays idle inside the transaction for
// `hold` before it commits: the session a DBA forgot in a mysql prompt, a report, a batch job
// between statements.
//
// What it holds is the metadata lock (sql/mdl.h, MDL_TRANSACTION duration: a statement's
// MDL_SHARED_READ / MDL_SHARED_WRITE is released at COMMIT, not at the statement's end), so an
// ALTER that must upgrade to MDL_EXCLUSIVE waits for the commit, and while that X request
// waits every new statement on the table queues behind it (the pile-up; model/server mdl.go).
// A reading transaction's read view holds purge back (model/server purge.go: the history list
// grows until it commits); `every` repeats the whole transaction.
type LongTransaction struct {
	Table string          `yaml:"table"` // a data group (its first table) or group[n]
	Rows  int             `yaml:"rows"`  // rows read (or updated) at the start (default 1)
	Write bool            `yaml:"write"` // UPDATE the rows instead of reading them
	Start config.Duration `yaml:"start"` // on the report clock
	Hold  config.Duration `yaml:"hold"`  // idle in the transaction after its statements, before COMMIT
	Every config.Duration `yaml:"every"` // 0: once; else the next transaction begins this long after the previous began
}

func (b *LongTransaction) Defaults(sc *config.Scenario, d config.Defaulter) {
	d.Def("rows", b.Rows == 0, func() { b.Rows = 1 })
}

func (b *LongTransaction) Check(sc *config.Scenario, c *config.Checker) {
	group := b.Table
	if g, _, ok := config.TableIndex(b.Table); ok {
		group = g
	}
	c.Table(sc, "table", group, "")
	if g, n, ok := config.TableIndex(b.Table); ok {
		for _, t := range sc.Data {
			if t.Name == g && (n < 1 || n > max(t.Tables, 1)) {
				c.Errorf("table", nil, "group %q has %d tables: expected %s[1] to %s[%d]", g, max(t.Tables, 1), g, g, max(t.Tables, 1))
			}
		}
	}
	c.Field("rows", b.Rows, config.AtLeast(1, "at least 1 row"))
	c.Field("start", b.Start, config.AtLeast(0, "a duration >= 0"))
	c.Start(sc, "start", b.Start)
	if b.Hold <= 0 {
		c.Errorf("hold", nil, "expected a duration > 0: how long the transaction stays open after its statements")
	}
	if b.Every != 0 && b.Every <= b.Hold {
		c.Errorf("every", []string{"hold"}, "expected a period longer than hold (%s): the next transaction begins after this one commits", b.Hold)
	}
}

// table resolves the block's table on the server.
func (b *LongTransaction) table(srv *server.Server) (*schema.Table, error) {
	group, n := b.Table, 1
	if g, k, ok := config.TableIndex(b.Table); ok {
		group, n = g, k
	}
	tabs := srv.Groups[group]
	if len(tabs) < n || n < 1 {
		return nil, fmt.Errorf("long_transaction: no table %q", b.Table)
	}
	return tabs[n-1], nil
}

// Launch spawns the connection.
func (b *LongTransaction) Launch(env Env) (Running, error) {
	srv := env.Srv
	tab, err := b.table(srv)
	if err != nil {
		return nil, err
	}
	at := env.OnClock(b.Start)
	startClients(srv, "long_txn", 1, 0, at, func(c *client, k int) bool {
		if k > 0 {
			if b.Every == 0 {
				return false
			}
			next := at + sim.Time(k)*sim.Time(b.Every)
			if next > c.t.Now() {
				c.t.Sleep(next - c.t.Now())
			}
		}
		co := &srv.Costs
		c.attempt(func() {
			c.statement(co.Statement) // BEGIN
			srv.Stats.Others++
			for i := 0; i < b.Rows; i++ {
				id := c.r.Int64N(max(tab.Rows, 1))
				c.statement(co.Statement + co.Row)
				c.use(tab, b.Write)
				if b.Write {
					c.writePK(tab, id, server.UpdateInPlace, redoUpdateNonKey)
					c.logUndo(server.UndoUpdNoKey, tab, id)
					srv.Stats.Writes++
					srv.Stats.IUD++
				} else {
					c.path = tab.Primary.Path(c.path[:0], tab.Primary.LeafOf(id))
					c.t.Search(tab.Primary, c.path, false)
					srv.Stats.Reads++
				}
			}
			c.t.StatementEnd()          // idle in transaction: not running (Threads_running)
			c.t.Sleep(sim.Time(b.Hold)) // its locks stay held
			c.statement(co.Statement)   // COMMIT
			if b.Write {
				c.t.CommitWait()
			}
			srv.Stats.Others++
			srv.Stats.Commits++
			c.endTxn()
		})
		return true
	})
	return noSummary{}, nil
}

func (b *LongTransaction) ClientThreads() int { return 1 }

// Demand: BEGIN, its rows' statements and COMMIT, once or every period.
func (b *LongTransaction) Demand(sc *config.Scenario) Demand {
	n := 1.0
	if b.Every > 0 {
		n += active(sc, b.Start, 0, false) / b.Every.Seconds()
	}
	return Demand{Threads: 1, Statements: n * float64(b.Rows+2)}
}
