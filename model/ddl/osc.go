package ddl

import (
	"fmt"

	"github.com/ddlsim/ddlsim/model/config"
	"github.com/ddlsim/ddlsim/model/schema"
	"github.com/ddlsim/ddlsim/model/server"
	"github.com/ddlsim/ddlsim/sim"
)

// The online-schema-change tools as create_index methods (docs/osc.md): a shadow table with
// the new index, filled by chunked INSERT ... SELECT copies through the pool as ordinary
// redo-logged DML, kept current by triggers (pt-online-schema-change) or by re-applying the
// table's binlog row events (gh-ost), swapped in by RENAME under the exclusive metadata
// lock, and the old table dropped through DROP TABLE's own path (the version's steps and
// the policy) or kept.

// Methods are the values of create_index's method field ("" is native).
var Methods = []string{"native", "pt-osc", "gh-ost"}

// PtOSC is pt-online-schema-change's options the model takes (percona-toolkit 3.5.7 defaults,
// docs/osc.md §3.6).
type PtOSC struct {
	// ChunkTime is --chunk-time: the copy statement's target duration; the chunk size adapts
	// to it (WeightedAvgRate). 0 keeps the chunk size fixed.
	ChunkTime config.Duration `yaml:"chunk_time"`
	// ChunkSize is --chunk-size: the first chunk's rows; given, it is fixed (chunk_time 0).
	ChunkSize int `yaml:"chunk_size"`
	// ChunkSizeLimit is --chunk-size-limit: a table of at most chunk_size × this many rows is
	// copied in one statement.
	ChunkSizeLimit float64 `yaml:"chunk_size_limit"`
	// Sleep is --sleep: the pause after each chunk.
	Sleep config.Duration `yaml:"sleep"`
	// DropOldTable is --[no]drop-old-table.
	DropOldTable *bool `yaml:"drop_old_table"`
	// LockWaitTimeout is the tool session's lock_wait_timeout (--set-vars, 60 s): how long
	// CREATE TRIGGER and the RENAME wait for the metadata lock per try.
	LockWaitTimeout config.Duration `yaml:"lock_wait_timeout"`
	// Tries is the tries of each metadata-locking step (--tries create_triggers, swap_tables:
	// 10, 1 s apart).
	Tries int `yaml:"tries"`
	// MaxLoad is --max-load Threads_running=N (default 25): after each chunk, the copy
	// pauses while Threads_running is at least N (Threads_running is the only status
	// variable modelled; an explicit threshold, so no auto-raise).
	MaxLoad int `yaml:"max_load"`
	// CriticalLoad is --critical-load Threads_running=N (default 50): the tool dies when
	// Threads_running is at least N at a check, and its cleanup runs.
	CriticalLoad int `yaml:"critical_load"`
	// CheckInterval is --check-interval (1 s): the sleep between two checks while paused.
	CheckInterval config.Duration `yaml:"check_interval"`
}

// GhOst is gh-ost's options the model takes (go/cmd/gh-ost/main.go defaults, docs/osc.md §4.6).
type GhOst struct {
	ChunkSize    int     `yaml:"chunk_size"`     // --chunk-size (10-100000)
	DMLBatchSize int     `yaml:"dml_batch_size"` // --dml-batch-size (1-1000)
	NiceRatio    float64 `yaml:"nice_ratio"`     // --nice-ratio (0-100)
	// CutOverLockTimeout is --cut-over-lock-timeout-seconds (1-10 s): the RENAME's
	// lock_wait_timeout.
	CutOverLockTimeout config.Duration `yaml:"cut_over_lock_timeout"`
	DefaultRetries     int             `yaml:"default_retries"`  // --default-retries, 1 s apart
	OkToDropTable      bool            `yaml:"ok_to_drop_table"` // --ok-to-drop-table
	// MaxLoad is --max-load Threads_running=N (default none, 0): the write loop is throttled
	// while the last reading (every second) was at least N.
	MaxLoad int `yaml:"max_load"`
	// CriticalLoad is --critical-load Threads_running=N (default none, 0): the migration
	// aborts when a reading is at least N.
	CriticalLoad int `yaml:"critical_load"`
	// CriticalLoadInterval is --critical-load-interval-millis (0): with it, a second reading
	// after this interval must also meet critical_load to abort.
	CriticalLoadInterval config.Duration `yaml:"critical_load_interval"`
	// MaxLagMillis is --max-lag-millis (1500 ms, at least 100 ms): the write loop is
	// throttled while the heartbeat lag is above it.
	MaxLagMillis config.Duration `yaml:"max_lag_millis"`
	// HeartbeatInterval is --heartbeat-interval-millis (100 ms, 100 ms-1 s).
	HeartbeatInterval config.Duration `yaml:"heartbeat_interval"`
}

func (o *CreateIndex) oscDefaults(d config.Defaulter) {
	switch o.Method {
	case "pt-osc":
		if o.PtOSC == nil {
			o.PtOSC = &PtOSC{}
		}
		p := o.PtOSC
		if !d.Given("pt_osc.chunk_time") && !d.Given("pt_osc.chunk_size") {
			p.ChunkTime = config.Duration(500 * sim.Millisecond)
		}
		d.Def("pt_osc.chunk_size", p.ChunkSize == 0, func() { p.ChunkSize = 1000 })
		d.Def("pt_osc.chunk_size_limit", p.ChunkSizeLimit == 0, func() { p.ChunkSizeLimit = 4 })
		d.Def("pt_osc.drop_old_table", p.DropOldTable == nil, func() { b := true; p.DropOldTable = &b })
		d.Def("pt_osc.lock_wait_timeout", p.LockWaitTimeout == 0, func() { p.LockWaitTimeout = config.Duration(60 * sim.Second) })
		d.Def("pt_osc.tries", p.Tries == 0, func() { p.Tries = 10 })
		d.Def("pt_osc.max_load", p.MaxLoad == 0, func() { p.MaxLoad = 25 })
		d.Def("pt_osc.critical_load", p.CriticalLoad == 0, func() { p.CriticalLoad = 50 })
		d.Def("pt_osc.check_interval", p.CheckInterval == 0, func() { p.CheckInterval = config.Duration(sim.Second) })
	case "gh-ost":
		if o.GhOst == nil {
			o.GhOst = &GhOst{}
		}
		g := o.GhOst
		d.Def("gh_ost.chunk_size", g.ChunkSize == 0, func() { g.ChunkSize = 1000 })
		d.Def("gh_ost.dml_batch_size", g.DMLBatchSize == 0, func() { g.DMLBatchSize = 10 })
		d.Def("gh_ost.cut_over_lock_timeout", g.CutOverLockTimeout == 0, func() { g.CutOverLockTimeout = config.Duration(3 * sim.Second) })
		d.Def("gh_ost.default_retries", g.DefaultRetries == 0, func() { g.DefaultRetries = 60 })
		d.Def("gh_ost.max_lag_millis", g.MaxLagMillis == 0, func() { g.MaxLagMillis = config.Duration(1500 * sim.Millisecond) })
		d.Def("gh_ost.heartbeat_interval", g.HeartbeatInterval == 0, func() { g.HeartbeatInterval = config.Duration(100 * sim.Millisecond) })
	}
}

func (o *CreateIndex) oscCheck(sc *config.Scenario, c *config.Checker) {
	c.Field("method", o.methodName(), config.OneOf(Methods...))
	if o.Method != "pt-osc" && o.PtOSC != nil {
		c.Errorf("pt_osc", nil, "pt_osc options need method: pt-osc (method is %s)", o.methodName())
	}
	if o.Method != "gh-ost" && o.GhOst != nil {
		c.Errorf("gh_ost", nil, "gh_ost options need method: gh-ost (method is %s)", o.methodName())
	}
	if o.Method != "" && o.Method != "native" {
		if o.Engine != "innodb" {
			c.Errorf("method", nil, "%s is modelled for engine innodb only (engine is %s)", o.Method, o.Engine)
		}
		if o.Indexes != 1 || o.OneAtATime {
			c.Errorf("method", nil, "%s adds one index per run: indexes must be 1 and one_at_a_time false", o.Method)
		}
	}
	if p := o.PtOSC; p != nil && o.Method == "pt-osc" {
		c.Field("pt_osc.chunk_time", float64(p.ChunkTime)/1e9, config.Between(0.0, 3600.0))
		c.Field("pt_osc.chunk_size", p.ChunkSize, config.AtLeast(1, "at least 1 row"))
		c.Field("pt_osc.chunk_size_limit", p.ChunkSizeLimit, config.AtLeast(0.0, "0 (no limit) or more"))
		c.Field("pt_osc.sleep", float64(p.Sleep)/1e9, config.Between(0.0, 3600.0))
		c.Field("pt_osc.lock_wait_timeout", float64(p.LockWaitTimeout)/1e9, config.Between(1.0, 31536000.0))
		c.Field("pt_osc.tries", p.Tries, config.AtLeast(1, "at least 1 try"))
		c.Field("pt_osc.max_load", p.MaxLoad, config.AtLeast(1, "a Threads_running threshold of at least 1"))
		c.Field("pt_osc.critical_load", p.CriticalLoad, config.AtLeast(1, "a Threads_running threshold of at least 1"))
		c.Field("pt_osc.check_interval", float64(p.CheckInterval)/1e9, config.Between(0.001, 3600.0))
	}
	if g := o.GhOst; g != nil && o.Method == "gh-ost" {
		if !sc.MySQL.LogBin {
			c.Errorf("method", []string{"mysql.log_bin"}, "gh-ost reads the binary log: set mysql.log_bin: true (gh-ost needs binlog_format=ROW)")
		}
		c.Field("gh_ost.chunk_size", g.ChunkSize, config.Between(10, 100000))
		c.Field("gh_ost.dml_batch_size", g.DMLBatchSize, config.Between(1, 1000))
		c.Field("gh_ost.nice_ratio", g.NiceRatio, config.Between(0.0, 100.0))
		c.Field("gh_ost.cut_over_lock_timeout", float64(g.CutOverLockTimeout)/1e9, config.Between(1.0, 10.0))
		c.Field("gh_ost.default_retries", g.DefaultRetries, config.AtLeast(1, "at least 1 try"))
		c.Field("gh_ost.max_load", g.MaxLoad, config.AtLeast(0, "0 (none) or a Threads_running threshold"))
		c.Field("gh_ost.critical_load", g.CriticalLoad, config.AtLeast(0, "0 (none) or a Threads_running threshold"))
		c.Field("gh_ost.critical_load_interval", float64(g.CriticalLoadInterval)/1e9, config.Between(0.0, 3600.0))
		// go/base/context.go:675-690: SetHeartbeatIntervalMilliseconds clamps to 100-1000,
		// SetMaxLagMillisecondsThrottleThreshold raises below 100 to 100; ddlsim refuses
		// instead of clamping silently.
		c.Field("gh_ost.max_lag_millis", float64(g.MaxLagMillis)/1e9, config.Between(0.1, 31536000.0))
		c.Field("gh_ost.heartbeat_interval", float64(g.HeartbeatInterval)/1e9, config.Between(0.1, 1.0))
	}
}

// StatementMethod is how the statement is run for the validation records
// (internal/trust): "" for the server's own ALTER, else the tool.
func (o *CreateIndex) StatementMethod() string {
	if m := o.methodName(); m != "native" {
		return m
	}
	return ""
}

func (o *CreateIndex) methodName() string {
	if o.Method == "" {
		return "native"
	}
	return o.Method
}

// oscStages: the tools take their locks statement by statement, so the run holds no MDL of
// its own.
func oscStages() []Stage {
	return []Stage{{Name: "osc", MDL: server.MDLNone, Phases: []string{"create_table", "create_triggers",
		"copy", "apply", "analyze", "swap", "cut_over", "cleanup", "ddl_log", "dictionary", "free_pages", "delete_file", "drop", "release_file"}}}
}

// OSCStats is what a tool run did, for tests and explain.
type OSCStats struct {
	Chunks, RowsCopied, TriggerRows, EventsApplied int64
	ChunkSizes                                     []int64
	CopyTime                                       sim.Time
	// Throttled is the time the copy was held back by max_load or the lag, in Pauses.
	Throttled sim.Time
	Pauses    []pause
	// ChunkStarts is when each chunk's copy began.
	ChunkStarts []sim.Time
	// TriggerAutoIncLocks counts the trigger REPLACEs that took the shadow's AUTO-INC table
	// lock (osc_rows.go).
	TriggerAutoIncLocks int64
}

// shadow is the tool's new table: the original's shape plus the new index, in a new
// tablespace; leaves are created on their first write (a page allocation), later writes
// modify them.
type shadow struct {
	tab  *schema.Table
	sp   *server.Space
	made map[schema.PageID]bool
	path []schema.PageID
	undo schema.PageID
	uses int
	rows shadowRows // pt-osc: which ids its triggers find there (osc_rows.go)
}

func newShadow(srv *server.Server, tab *schema.Table, columns []string, suffix string) *shadow {
	nsp := srv.Spaces.New("_" + tab.Name + suffix)
	nt := tab.Fresh(nsp.ID)
	for _, d := range nt.NewIndexes(columns, 1) {
		ix := schema.NewIndex(nt.Name+"."+d.Name, nsp.ID, nt.NextPage, nt.Rows, d.EntryBytes, d.EntryBytes, srv.PageSize)
		ix.Columns = d.Columns
		nt.NextPage += uint32(ix.Pages)
		nt.Secondary = append(nt.Secondary, ix)
	}
	nsp.Table, nsp.NextPage = nt, nt.NextPage
	return &shadow{tab: nt, sp: nsp, made: map[schema.PageID]bool{}}
}

// touch writes page pid of the shadow: a new page the first time.
func (sh *shadow) touch(t *server.Thread, pid schema.PageID) {
	if !sh.made[pid] {
		sh.made[pid] = true
		t.NewPage(pid)
		return
	}
	t.Write(pid)
}

// writeRow is one row written into the shadow (REPLACE / INSERT IGNORE / the applier's
// statement): its clustered leaf and one entry in every secondary index, placed by the row's
// id as the workloads place them, and an undo record.
func (sh *shadow) writeRow(t *server.Thread, id int64) {
	ix := sh.tab.Primary
	sh.path = ix.Path(sh.path[:0], ix.LeafOf(min(id, ix.Rows-1)))
	for _, p := range sh.path {
		sh.touch(t, p)
	}
	for _, sec := range sh.tab.Secondary {
		h := uint64(id)*0x9E3779B97F4A7C15 ^ 0xBF58476D1CE4E5B9
		h ^= h >> 31
		sh.path = sec.Path(sh.path[:0], sec.LeafOf(int64(h%uint64(sec.Rows))))
		for _, p := range sh.path {
			sh.touch(t, p)
		}
	}
	sh.writeUndo(t)
}

// writeUndo: an undo record per row, a new undo page every undoRecs rows.
func (sh *shadow) writeUndo(t *server.Thread) {
	const undoRecs = 100
	if sh.uses == 0 || sh.uses >= undoRecs {
		u := t.Srv.Undo
		sh.undo = schema.MakePageID(u.ID, u.NextPage)
		u.NextPage++
		t.NewPage(sh.undo)
		sh.uses = 0
	} else {
		t.Write(sh.undo)
	}
	sh.uses++
}

// roundTrip is one statement of the tool's connection: the client RTT and the server's
// statement CPU.
func roundTrip(t *server.Thread, n int) {
	rtt := sim.Time(t.Srv.Scenario.HardwareProfile.ClientRTT)
	for i := 0; i < n; i++ {
		t.Charge(t.Srv.Costs.Statement)
		t.Pay()
		if rtt > 0 {
			t.Sleep(rtt)
		}
	}
}

// copyChunk copies source rows [lo, hi) into the shadow: the boundary SELECT reads the
// chunk's clustered leaves, the INSERT ... SELECT reads them again and writes every row into
// the shadow, then commits (binlogged rows when log_bin is on). extra is the statements
// around the copy (EXPLAINs, SHOW WARNINGS, the throttle checks).
func copyChunk(t *server.Thread, src *schema.Table, sh *shadow, lo, hi int64, extra int) sim.Time {
	co := &t.Srv.Costs
	ix := src.Primary
	var path []schema.PageID
	read := func() {
		first, last := ix.LeafOf(lo), ix.LeafOf(hi-1)
		path = ix.Path(path[:0], first)
		t.Search(ix, path, false)
		t.ScanLeaves(ix, first+1, last) // with linear read-ahead (model/server readahead.go)
		t.Charge(sim.Time(hi-lo) * co.Row)
	}
	roundTrip(t, 1)
	read() // the next boundary: SELECT pk ... LIMIT chunk_size-1, 2
	roundTrip(t, extra)
	start := t.Now()
	roundTrip(t, 1)
	t.LogFreeCheck()
	// INSERT ... SELECT (SQLCOM_INSERT_SELECT, never a simple insert): its first row takes the
	// shadow's AUTO-INC table lock under innodb_autoinc_lock_mode 0 and 1, and the statement
	// holds it to its end. The commit releases it with the row locks, before the log flush.
	autoinc := t.Srv.InsertAutoInc(sh.tab, false)
	if autoinc {
		t.LockAutoInc(sh.tab)
	}
	read() // INSERT ... SELECT ... LOCK IN SHARE MODE
	for id := lo; id < hi; id++ {
		t.Charge(co.Row)
		sh.writeRow(t, id)
	}
	t.LogRows(sh.tab, hi-lo)
	if autoinc {
		t.Pay()
		t.UnlockAutoInc(sh.tab)
	}
	t.CommitWait()
	t.Pay()
	return t.Now() - start
}

// lockTable takes the exclusive metadata lock on tab with tries × timeout (the tool's
// osc_retry); false when every try timed out.
func lockTable(t *server.Thread, tab *schema.Table, tries int, timeout sim.Time) bool {
	for i := 0; i < tries; i++ {
		if i > 0 {
			t.Sleep(sim.Second)
		}
		if t.AcquireMDLTimeout(tab, server.MDLExclusive, timeout) {
			return true
		}
	}
	return false
}

// swapAndDrop is the RENAME (the caller holds X on tab): the clients' table object takes the
// shadow's contents, and the old contents become _T_old; dropped (drop) through DROP TABLE's
// path, or kept.
func swapAndDrop(x *Exec, sh *shadow, drop bool) {
	t, tab := x.T, x.Table
	old := *tab
	oldSp := x.Space
	*tab = *sh.tab
	sh.sp.Table = tab
	oldT := &old
	oldT.Name = "_" + old.Name + "_old"
	oldSp.Table = oldT
	t.ReleaseMDL(tab, server.MDLExclusive)
	if !drop {
		return
	}
	y := &Exec{T: t, Srv: x.Srv, Ev: x.Ev, Table: oldT, Space: oldSp, R: x.R}
	(&DropTable{}).Run(y)
}

// runPtOSC is pt-online-schema-change's main (steps 1-7, docs/osc.md §3.1).
func (o *CreateIndex) runPtOSC(x *Exec) {
	t, srv, tab := x.T, x.Srv, x.Table
	p := o.PtOSC
	st := &OSCStats{}
	x.R.OSC = st
	var sh *shadow
	x.Phase("create_table", func() server.ScanStats {
		roundTrip(t, 3) // SHOW CREATE TABLE, CREATE TABLE, ALTER TABLE (empty)
		sh = newShadow(srv, tab, o.Columns, "_new")
		return server.ScanStats{}
	})
	// The triggers: each CREATE TRIGGER takes X on the table (mysql_create_or_drop_trigger).
	trigger := ptTrigger(srv, sh, st)
	ok := true
	x.Phase("create_triggers", func() server.ScanStats {
		for i := 0; i < 3 && ok; i++ {
			roundTrip(t, 1)
			if ok = lockTable(t, tab, p.Tries, sim.Time(p.LockWaitTimeout)); ok {
				if i == 2 {
					srv.SetTrigger(tab, trigger)
				}
				t.ReleaseMDL(tab, server.MDLExclusive)
			}
		}
		return server.ScanStats{}
	})
	if !ok {
		x.Fail("ER_LOCK_WAIT_TIMEOUT: CREATE TRIGGER on " + tab.Name)
		return
	}
	defer srv.SetTrigger(tab, nil)
	crit := ""
	x.Phase("copy", func() server.ScanStats {
		start := t.Now()
		rows := tab.Rows
		size := int64(p.ChunkSize)
		if p.ChunkSizeLimit > 0 && float64(rows) <= float64(size)*p.ChunkSizeLimit {
			size = rows // one nibble
		}
		var avgN, avgT float64 // WeightedAvgRate
		for lo := int64(0); lo < rows; {
			hi := min(lo+size, rows)
			st.ChunkStarts = append(st.ChunkStarts, t.Now())
			d := copyChunk(t, tab, sh, lo, hi, 8)
			sh.rows.advance(hi)
			st.Chunks++
			st.RowsCopied += hi - lo
			st.ChunkSizes = append(st.ChunkSizes, hi-lo)
			if p.ChunkTime > 0 {
				size = weightedAvgRate(&avgN, &avgT, st.Chunks == 1, float64(hi-lo), d.Seconds(), sim.Time(p.ChunkTime).Seconds())
			}
			if v, ok := ptLoadWait(t, p, st); !ok {
				crit = fmt.Sprintf("Error copying rows from %s to _%s_new: Threads_running=%d exceeds its critical threshold %d",
					tab.Name, tab.Name, v, p.CriticalLoad)
				break
			}
			if p.Sleep > 0 {
				idleSleep(t, sim.Time(p.Sleep))
			}
			lo = hi
		}
		st.CopyTime = t.Now() - start
		return server.ScanStats{}
	})
	if crit != "" {
		ptAbort(x, sh, p, crit)
		return
	}
	x.Phase("analyze", func() server.ScanStats {
		roundTrip(t, 1)
		updateStats(t, sh.tab)
		return server.ScanStats{}
	})
	ok = true
	x.Phase("swap", func() server.ScanStats {
		roundTrip(t, 1)
		ok = lockTable(t, tab, p.Tries, sim.Time(p.LockWaitTimeout))
		return server.ScanStats{}
	})
	if !ok {
		x.Fail("ER_LOCK_WAIT_TIMEOUT: RENAME TABLE " + tab.Name)
		return
	}
	srv.SetTrigger(tab, nil) // the triggers moved with the table to _T_old
	swapAndDrop(x, sh, *p.DropOldTable)
}

// weightedAvgRate is WeightedAvgRate::update (weight 0.75) and the chunk size it sets:
// int(avg_n / avg_t × chunk_time), at least 1.
func weightedAvgRate(avgN, avgT *float64, first bool, n, t, target float64) int64 {
	if first {
		*avgN, *avgT = n, t
	} else {
		*avgN = 0.75**avgN + n
		*avgT = 0.75**avgT + t
	}
	if *avgT <= 0 {
		return int64(max(n, 1))
	}
	return max(int64(*avgN / *avgT * target), 1)
}

// runGhOst is gh-ost's Migrate (docs/osc.md §4.1): the ghost table, the single write loop
// (binlog events first, then the copy), the atomic cut-over, the old table kept as _T_del
// unless ok_to_drop_table.
func (o *CreateIndex) runGhOst(x *Exec) {
	t, srv, tab := x.T, x.Srv, x.Table
	g := o.GhOst
	st := &OSCStats{}
	x.R.OSC = st
	var sh *shadow
	var rd *server.BinlogReader
	x.Phase("create_table", func() server.ScanStats {
		roundTrip(t, 4) // the changelog table, CREATE TABLE LIKE, ALTER, the state row
		rd = srv.AttachBinlogReader(tab)
		sh = newShadow(srv, tab, o.Columns, "_gho")
		return server.ScanStats{}
	})
	defer srv.DetachBinlogReader(tab)
	th := newGhThrottler(x, g)
	defer func() { th.done = true }()
	apply := func() {
		n := min(len(rd.IDs), g.DMLBatchSize)
		roundTrip(t, 2) // BEGIN + the batch's multi-statement
		t.LogFreeCheck()
		for _, id := range rd.IDs[:n] {
			t.Charge(srv.Costs.Statement)
			sh.writeRow(t, id)
		}
		rd.IDs = rd.IDs[n:]
		t.LogRows(sh.tab, int64(n))
		t.CommitWait()
		t.Pay()
		st.EventsApplied += int64(n)
	}
	x.Phase("copy", func() server.ScanStats {
		start := t.Now()
		size := int64(g.ChunkSize)
		for lo := int64(0); lo < tab.Rows && th.abort == ""; {
			th.wait(t, st) // throttle() before each write function
			if th.abort != "" {
				break
			}
			if len(rd.IDs) > 0 { // events first
				apply()
				continue
			}
			hi := min(lo+size, tab.Rows)
			st.ChunkStarts = append(st.ChunkStarts, t.Now())
			d := copyChunk(t, tab, sh, lo, hi, 1)
			st.Chunks++
			st.RowsCopied += hi - lo
			st.ChunkSizes = append(st.ChunkSizes, hi-lo)
			if g.NiceRatio > 0 {
				idleSleep(t, sim.Time(g.NiceRatio*float64(d)))
			}
			lo = hi
		}
		st.CopyTime = t.Now() - start
		return server.ScanStats{}
	})
	if th.abort != "" {
		// listenOnPanicAbort → abort: the migration stops; the ghost and changelog tables
		// are left for the operator (no cleanup).
		x.Fail("gh-ost: " + th.abort)
		return
	}
	ok := false
	x.Phase("cut_over", func() server.ScanStats {
		th.wait(t, st) // cutOver throttles first (migrator.go:879)
		for i := 0; i < g.DefaultRetries && !ok; i++ {
			if i > 0 {
				t.Sleep(sim.Second)
			}
			for len(rd.IDs) > 0 {
				apply()
			}
			// LOCK TABLES T WRITE (its lock_wait_timeout is 2L), then the backlog up to the
			// lock, then the RENAME (simplified: one exclusive lock for both sessions).
			roundTrip(t, 4)
			if !t.AcquireMDLTimeout(tab, server.MDLExclusive, 2*sim.Time(g.CutOverLockTimeout)) {
				continue
			}
			for len(rd.IDs) > 0 {
				apply()
			}
			ok = true
		}
		return server.ScanStats{}
	})
	if !ok {
		x.Fail("ER_LOCK_WAIT_TIMEOUT: gh-ost cut-over on " + tab.Name)
		return
	}
	srv.DetachBinlogReader(tab)
	x.Phase("analyze", func() server.ScanStats { updateStats(t, sh.tab); return server.ScanStats{} })
	swapAndDrop(x, sh, g.OkToDropTable)
}
