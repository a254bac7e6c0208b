package workload

import (
	"fmt"
	"math/rand/v2"

	"github.com/ddlsim/ddlsim/model/config"
	"github.com/ddlsim/ddlsim/model/schema"
	"github.com/ddlsim/ddlsim/model/server"
	"github.com/ddlsim/ddlsim/sim"
)

// Mixes lists the sysbench scripts modelled.
var Mixes = []string{"oltp_read_write", "oltp_read_only", "oltp_write_only", "oltp_point_select", "oltp_update_index", "oltp_insert"}

// RandTypes lists the --rand-type distributions modelled (rand.go): sysbench 1.0.20's four
// and zipfian, which only later sysbench (1.1, master) has.
var RandTypes = []string{"special", "uniform", "gaussian", "pareto", "zipfian"}

// Sysbench is the `sysbench:` workload block: sysbench 1.0's oltp_* scripts.
type Sysbench struct {
	Mix     string          `yaml:"mix"` // oltp_read_write | oltp_read_only | oltp_write_only | oltp_point_select | oltp_update_index | oltp_insert
	Threads int             `yaml:"threads"`
	Tables  string          `yaml:"tables"` // name of a data group
	Rate    float64         `yaml:"rate"`   // transactions/s over all threads; 0 = closed loop
	Rand    string          `yaml:"rand"`   // special | uniform | gaussian | pareto | zipfian
	Start   config.Duration `yaml:"start"`
	// IgnoreErrors is --mysql-ignore-errors: the MySQL error numbers that re-run the event
	// instead of ending the worker thread, comma-separated, or "all". "" is sysbench's
	// default, 1213,1020,1205 (a deadlock, a changed record, a lock wait timeout).
	IgnoreErrors string `yaml:"ignore_errors,omitempty"`
	// Stop ends the load (report clock; 0 = at the end of the run); Phases change its threads
	// and rate at given times (phases.go).
	Stop   config.Duration `yaml:"stop,omitempty"`
	Phases []Phase         `yaml:"phases,omitempty"`
}

func (b *Sysbench) Defaults(sc *config.Scenario, d config.Defaulter) {
	d.Def("threads", b.Threads == 0, func() { b.Threads = 1 })
	d.Def("rand", b.Rand == "", func() { b.Rand = "special" }) // sysbench's --rand-type default
	if g := groupsOfKind(sc, "sysbench"); len(g) == 1 {
		d.Def("tables", b.Tables == "", func() { b.Tables = g[0] })
	}
}

func (b *Sysbench) Check(sc *config.Scenario, c *config.Checker) {
	c.Field("mix", b.Mix, config.OneOf(Mixes...))
	c.Field("threads", b.Threads, config.AtLeast(1, "at least 1 thread"))
	if b.Tables == "" {
		c.Errorf("tables", nil, "missing: expected a name")
	} else {
		c.Table(sc, "tables", b.Tables, "")
	}
	c.Field("rate", b.Rate, config.AtLeast(0.0, "a rate >= 0 (0 = closed loop)"))
	c.Field("rand", b.Rand, config.OneOf(RandTypes...))
	c.Field("start", b.Start, config.AtLeast(0, "a duration >= 0"))
	c.Start(sc, "start", b.Start)
	if _, err := parseIgnoreErrors(b.IgnoreErrors); err != nil {
		c.Errorf("ignore_errors", nil, "%v", err)
	}
	checkPhases(sc, c, b.Start, b.Stop, b.Phases)
}

// groupsOfKind lists the scenario's data groups of one kind.
func groupsOfKind(sc *config.Scenario, kind string) []string {
	var g []string
	for _, t := range sc.Data {
		if t.Kind == kind {
			g = append(g, t.Name)
		}
	}
	return g
}

// client is what every generator shares: the server thread, its random stream, an undo page
// and the open-loop pacing.
type client struct {
	t       *server.Thread
	r       *rand.Rand
	src     *rand.PCG // r's source (sim.Sim.StreamWithSource)
	path    []schema.PageID
	undo    schema.PageID
	undoUse int
	next    sim.Time  // open loop: the next arrival
	gap     float64   // open loop: mean inter-arrival ns (0 = closed loop)
	deal    int       // tpcc: where in the transaction deck this client starts
	held    []heldMDL // metadata locks of the current transaction
	err     int       // the SQL error that ended the last attempt
}

// statement is one client statement: the client's own CPU when it runs on the server's
// cores (hardware.client: sysbench's Lua, the protocol, its syscalls, computed on a modelled
// core before the server sees the statement), the round trip (hardware.client_rtt; the
// connection's thread sleeps meanwhile) and then cpu of server work, plus statement_sys (the
// statement's kernel CPU: the packet's recv and the result's send).
//
// The previous statement's command ends here and this one's starts after the round trip
// (Threads_running, server.Thread.StatementStart).
func (c *client) statement(cpu sim.Time) {
	hw := &c.t.Srv.Scenario.HardwareProfile
	c.t.StatementEnd()
	if d := sim.Time(hw.Client.CPUPerStatement); hw.Client.Colocated && d > 0 {
		c.t.Pay()
		c.t.Srv.Cores.Compute(c.t.Proc, d)
		c.t.Srv.Stats.ClientCPUNs += uint64(d)
	}
	if rtt := sim.Time(hw.ClientRTT); rtt > 0 {
		c.t.Sleep(rtt)
	}
	c.t.StatementStart()
	c.t.Charge(cpu + c.t.Srv.Costs.Path.StatementSys) // statement_sys: the protocol's and socket's kernel CPU
}

// undoRecsPerPage: an update undo record of a sysbench row is ~100-200 bytes.
const undoRecsPerPage = 100

// writeUndo appends an undo record: the undo segment's current page is modified, and a new
// page is allocated when it fills (trx0undo.cc, trx_undo_add_page).
func (c *client) writeUndo() {
	s := c.t.Srv
	if c.undoUse == 0 || c.undoUse >= undoRecsPerPage {
		sp := s.Undo
		c.undo = schema.MakePageID(sp.ID, sp.NextPage)
		sp.NextPage++
		c.t.NewPage(c.undo)
		c.undoUse = 0
	} else {
		c.t.Write(c.undo)
	}
	c.undoUse++
}

// logUndo is writeUndo of an update undo record that purge will read (server.LogUndo): the
// row's table and id and, for an indexed update or a delete, the leaf of each secondary entry
// it delete-marked (secLeaf: the model keeps no per-row k, so the old entry is where the
// row's k entry always is).
func (c *client) logUndo(kind server.UndoKind, tab *schema.Table, id int64) {
	c.writeUndo()
	r := server.UndoRec{Tab: tab, Kind: kind, ID: id, Page: c.undo}
	if kind == server.UndoUpdKey || kind == server.UndoDelMark {
		for i, sec := range tab.Secondary {
			if i == server.MaxPurgeSec {
				break
			}
			r.Sec[i] = secLeaf(sec, id)
			r.NSec++
		}
	}
	c.t.LogUndo(r)
}

// pace waits for the next arrival in open-loop mode and returns the transaction's start time
// (its scheduled arrival, so queueing delay counts in latency as sysbench --rate reports it).
func (c *client) pace() sim.Time {
	t := c.t
	if c.gap == 0 {
		return t.Now()
	}
	c.next += sim.Time(c.r.ExpFloat64() * c.gap)
	if c.next > t.Now() {
		t.Sleep(c.next - t.Now())
	}
	return c.next
}

// startClients spawns n client threads named prefix[i] that wait until `at`, then call
// txn in a loop (txn paces itself with c.pace for open-loop rates) until it returns false
// (the client thread ends, as a sysbench worker does on a fatal SQL error).
func startClients(srv *server.Server, prefix string, n int, rate float64, at sim.Time, txn func(c *client, k int) bool) {
	for i := 0; i < n; i++ {
		name := fmt.Sprintf("%s[%d]", prefix, i)
		r, src := srv.Sim.StreamWithSource(name)
		c := &client{r: r, src: src}
		if rate > 0 {
			c.gap = float64(n) / rate * 1e9
		}
		srv.Spawn(name, "fg", func(t *server.Thread) {
			c.t = t
			if at > t.Now() {
				t.Sleep(at - t.Now())
			}
			c.next = t.Now()
			noRTT := srv.Scenario.HardwareProfile.ClientRTT == 0
			for k := 0; txn(c, k); k++ {
				t.StatementEnd() // the transaction's last statement
				if noRTT {
					// Without a client round trip nothing else makes a transaction that
					// finds its pages cached take simulated time: its CPU would stay owed
					// and the client would loop forever at one instant.
					t.Pay()
				}
			}
			t.StatementGone()
		})
	}
}

// sysbench runs one sysbench oltp_* script.
type sysbench struct {
	cfg    *Sysbench
	srv    *server.Server
	tables []*schema.Table
	keys   Keys
	fast   sourceKeys // keys, when it can draw from the stream's source directly
	rowsK  []int64    // rows per table (grows with oltp_insert)
}

// Launch spawns the sysbench client threads.
func (cfg *Sysbench) Launch(env Env) (Running, error) {
	srv := env.Srv
	tabs := srv.Groups[cfg.Tables]
	if len(tabs) == 0 {
		return nil, fmt.Errorf("sysbench: no data group %q", cfg.Tables)
	}
	keys, err := NewKeys(cfg.Rand, tabs[0].Rows)
	if err != nil {
		return nil, err
	}
	sb := &sysbench{cfg: cfg, srv: srv, tables: tabs, keys: keys}
	sb.fast, _ = keys.(sourceKeys)
	for _, t := range tabs {
		sb.rowsK = append(sb.rowsK, t.Rows)
	}
	ignore, _ := parseIgnoreErrors(cfg.IgnoreErrors)
	start := func(txn func(c *client, k int) bool) {
		startClients(srv, "sysbench", cfg.Threads, cfg.Rate, env.OnClock(cfg.Start), txn)
	}
	if cfg.Stop > 0 || len(cfg.Phases) > 0 {
		plan := newLoadPlan(env, cfg.Threads, cfg.Rate, cfg.Start, cfg.Stop, cfg.Phases)
		start = func(txn func(c *client, k int) bool) { startPlannedClients(srv, "sysbench", plan, txn) }
	}
	start(func(c *client, _ int) bool {
		start := c.pace()
		// sysbench 1.0's thread_run: an ignorable error re-runs the event from its start
		// (counted in err/s); any other ends the worker thread (FATAL).
		for !c.attempt(func() { sb.txn(c) }) {
			if !ignore(c.err) {
				return false
			}
		}
		srv.RecordTxn(c.t.Now() - start)
		return true
	})
	return noSummary{}, nil
}

func (sb *sysbench) table(c *client) (*schema.Table, int) {
	i := c.r.IntN(len(sb.tables))
	return sb.tables[i], i
}

func (sb *sysbench) id(c *client, ti int) int64 {
	if sb.fast != nil {
		return sb.fast.NextFrom(c.src) % sb.rowsK[ti]
	}
	return sb.keys.Next(c.r) % sb.rowsK[ti]
}

// secLeaf is where row id's k entry sits: sysbench fills k with uniform random values at
// prepare, so the k index order is a fixed pseudo-random permutation of ids.
func secLeaf(ix *schema.Index, id int64) int64 {
	h := uint64(id)*0x9E3779B97F4A7C15 ^ 0xBF58476D1CE4E5B9
	h ^= h >> 31
	return ix.LeafOf(int64(h % uint64(ix.Rows)))
}

func (sb *sysbench) txn(c *client) {
	s, t := sb.srv, c.t
	co := &s.Costs
	switch sb.cfg.Mix {
	case "oltp_point_select":
		tab, ti := sb.table(c)
		sb.pointSelect(c, tab, sb.id(c, ti))
		s.Stats.Reads++
		c.endTxn()
		return
	case "oltp_update_index":
		tab, ti := sb.table(c)
		t.LogFreeCheck()
		sb.indexUpdate(c, tab, sb.id(c, ti))
		s.Stats.Writes++
		s.Stats.IUD++
		t.Mtr(redoCommit) // COMMIT's mtr (trx_write_serialisation_history)
		t.CommitWait()
		s.Stats.Commits++
		c.endTxn()
		return
	case "oltp_insert":
		tab, ti := sb.table(c)
		t.LogFreeCheck()
		sb.insert(c, tab, sb.rowsK[ti])
		sb.rowsK[ti]++
		s.Stats.Writes++
		s.Stats.IUD++
		t.Mtr(redoCommit) // COMMIT's mtr (trx_write_serialisation_history)
		t.CommitWait()
		s.Stats.Commits++
		c.endTxn()
		return
	}
	// oltp_read_write.lua's event() in sysbench 1.0.20 (/usr/share/sysbench/, Debian's
	// 1.0.20): each execute_* function of oltp_common.lua picks its table once,
	// sysbench.rand.uniform(1, tables), and every query of it goes to that table.
	c.statement(co.Statement) // BEGIN
	s.Stats.Others++
	if sb.cfg.Mix != "oltp_write_only" {
		tab, ti := sb.table(c) // execute_point_selects: 10 on one table
		for i := 0; i < 10; i++ {
			sb.pointSelect(c, tab, sb.id(c, ti))
		}
		for i := 0; i < 4; i++ {
			// execute_simple_ranges, _sum_, _order_, _distinct_: one query each, each its own
			// table. simple, SUM(k), ORDER BY c (filesort), DISTINCT c ORDER BY c (temp table
			// + sort)
			tab, ti := sb.table(c)
			extra := sim.Time(0)
			if i >= 2 {
				extra = 100 * 7 * co.FilesortRow
			}
			sb.rangeSelect(c, tab, sb.id(c, ti), 100, extra)
		}
		s.Stats.Reads += 14
	}
	if sb.cfg.Mix != "oltp_read_only" {
		t.LogFreeCheck()
		tab, ti := sb.table(c)
		sb.indexUpdate(c, tab, sb.id(c, ti))
		tab, ti = sb.table(c)
		sb.nonIndexUpdate(c, tab, sb.id(c, ti))
		tab, ti = sb.table(c)
		// execute_delete_inserts: DELETE id, then INSERT (id, k, c, pad) with a fresh k =
		// get_id() (sysbench.rand.default again).
		id := sb.id(c, ti)
		sb.delete(c, tab, id)
		sb.insertAt(c, tab, id)
		s.Stats.Writes += 4
		s.Stats.IUD += 4
	}
	c.statement(co.Statement) // COMMIT
	s.Stats.Others++
	t.Mtr(redoCommit) // COMMIT's mtr (trx_write_serialisation_history)
	t.CommitWait()
	s.Stats.Commits++
	c.endTxn() // the transaction's metadata locks go with it
}

func (sb *sysbench) pointSelect(c *client, tab *schema.Table, id int64) {
	co := &sb.srv.Costs
	c.statement(co.Statement + co.Row)
	c.use(tab, false)
	c.path = tab.Primary.Path(c.path[:0], tab.Primary.LeafOf(id))
	c.t.Search(tab.Primary, c.path, false)
}

func (sb *sysbench) rangeSelect(c *client, tab *schema.Table, id, n int64, extra sim.Time) {
	co := &sb.srv.Costs
	c.statement(co.Statement + sim.Time(n)*co.Row + extra)
	c.use(tab, false)
	ix := tab.Primary
	// BETWEEN id AND id+99: the rows that exist (a range near the end of the table is cut
	// short).
	first, last := ix.LeafOf(id), ix.LeafOf(min(id+n, tab.Rows)-1)
	c.path = ix.Path(c.path[:0], first)
	c.t.Search(ix, c.path, false)
	for l := first + 1; l <= last; l++ {
		c.t.Read(ix.Leaf(l))
	}
}

func (sb *sysbench) indexUpdate(c *client, tab *schema.Table, id int64) {
	co := &sb.srv.Costs
	c.statement(co.Statement + 2*co.Row)
	c.use(tab, true)
	c.writePK(tab, id, server.UpdateInPlace, redoUpdateKey)
	for _, sec := range tab.Secondary {
		leaf := secLeaf(sec, id)
		c.path = sec.Path(c.path[:0], leaf) // delete-mark the old entry
		c.t.Search(sec, c.path, true)
		c.t.Change(sec, c.path[len(c.path)-1], server.DeleteMark, redoUpdateKey)
		c.path = sec.Path(c.path[:0], leaf) // insert k+1: adjacent, same leaf
		c.t.Search(sec, c.path, true)
		c.t.Change(sec, c.path[len(c.path)-1], server.Insert, redoUpdateKey)
	}
	c.logUndo(server.UndoUpdKey, tab, id)
	c.t.Mtr(redoUpdateKey) // the undo record's mtr
}

// rowOp is the statement a clustered change of writePK belongs to: UPDATE in place, DELETE
// (the delete mark), INSERT (sysbench re-inserts the id it deleted over the delete-marked
// record).
func rowOp(op server.ChangeOp) server.RowOp {
	switch op {
	case server.DeleteMark:
		return server.RowDelete
	case server.Update, server.Insert:
		return server.RowInsert
	}
	return server.RowUpdate
}

// writePK descends the primary key to row id's leaf and changes the record (op, a mtr of
// redo bytes: Thread.Change, charged with the access-path costs on).
func (c *client) writePK(tab *schema.Table, id int64, op server.ChangeOp, redo int) {
	c.path = tab.Primary.Path(c.path[:0], tab.Primary.LeafOf(id))
	c.t.Search(tab.Primary, c.path, true)
	c.t.Change(tab.Primary, c.path[len(c.path)-1], op, redo)
	c.t.RowChanged(tab, id, rowOp(op)) // its binlog event and the table's triggers
}

// The redo bytes per mini-transaction of each write statement (MariaDB 10.11's records,
// model/calib BenchmarkStmtLog, docs/cpu-model.md §7: the statement's redo over its mtrs,
// split evenly — the per-mtr split is not measured): UPDATE SET k=k+1 106 bytes over 4 mtrs,
// SET c=? 292 over 2, DELETE 81 over 3, INSERT of the deleted id 458 over 3, INSERT of a new
// id 268 over 3, COMMIT 56 in 1.
const (
	redoUpdateKey    = 106 / 4
	redoUpdateNonKey = 292 / 2
	redoDelete       = 81 / 3
	redoInsertReuse  = 458 / 3
	redoInsertNew    = 268 / 3
	redoCommit       = 56
)

func (sb *sysbench) nonIndexUpdate(c *client, tab *schema.Table, id int64) {
	co := &sb.srv.Costs
	c.statement(co.Statement + co.Row)
	c.use(tab, true)
	c.writePK(tab, id, server.UpdateInPlace, redoUpdateNonKey)
	c.logUndo(server.UndoUpdNoKey, tab, id)
	c.t.Mtr(redoUpdateNonKey)
}

func (sb *sysbench) delete(c *client, tab *schema.Table, id int64) {
	co := &sb.srv.Costs
	c.statement(co.Statement + co.Row)
	c.use(tab, true)
	c.writePK(tab, id, server.DeleteMark, redoDelete)
	for _, sec := range tab.Secondary {
		c.path = sec.Path(c.path[:0], secLeaf(sec, id))
		c.t.Search(sec, c.path, true)
		c.t.Change(sec, c.path[len(c.path)-1], server.DeleteMark, redoDelete)
	}
	c.logUndo(server.UndoDelMark, tab, id)
	c.t.Mtr(redoDelete)
}

// insertAt re-inserts row id (sysbench deletes then inserts the same id) with a fresh
// k = get_id(), a draw of the same distribution the prepare step filled k with (sb_rand is
// sysbench.rand.default): the row's clustered leaf is the delete's; its k entry goes to the
// rank of the new k among the table's k values, and since those follow the same
// distribution, that rank is uniform over the index and independent of id: a leaf drawn at
// random, not the deleted entry's. (Later accesses of the row's k entry use secLeaf, the same
// uniform placement; the model keeps no per-row k.)
func (sb *sysbench) insertAt(c *client, tab *schema.Table, id int64) {
	co := &sb.srv.Costs
	c.statement(co.Statement + co.Row)
	c.use(tab, true)
	c.writePK(tab, id, server.Update, redoInsertReuse)
	for _, sec := range tab.Secondary {
		c.path = sec.Path(c.path[:0], sec.LeafOf(c.r.Int64N(sec.Rows)))
		c.t.Search(sec, c.path, true)
		c.t.Change(sec, c.path[len(c.path)-1], server.Insert, redoInsertReuse)
	}
	c.logUndo(server.UndoUpdDel, tab, id)
	c.t.Mtr(redoInsertReuse)
}

// insert appends a new row at the end of the table (AUTO_INCREMENT id): the last leaf, and a
// new page every LeafRecs rows (a page split at the right edge).
func (sb *sysbench) insert(c *client, tab *schema.Table, id int64) {
	co := &sb.srv.Costs
	c.statement(co.Statement + co.Row)
	c.use(tab, true)
	ix := tab.Primary
	if id >= ix.Rows && (id-ix.Rows)%int64(ix.LeafRecs) == 0 {
		sp := sb.srv.Spaces.Get(tab.Space)
		c.t.NewPage(schema.MakePageID(tab.Space, sp.NextPage))
		sp.NextPage++
	}
	c.path = ix.Path(c.path[:0], ix.LeafPages()-1)
	c.t.Search(ix, c.path, true)
	c.t.Change(ix, c.path[len(c.path)-1], server.Insert, redoInsertNew)
	c.t.RowChanged(tab, id, server.RowInsert)
	for _, sec := range tab.Secondary {
		c.path = sec.Path(c.path[:0], secLeaf(sec, id))
		c.t.Search(sec, c.path, true)
		c.t.Change(sec, c.path[len(c.path)-1], server.Insert, redoInsertNew)
	}
	c.writeUndo()
	c.t.Mtr(redoInsertNew)
}
