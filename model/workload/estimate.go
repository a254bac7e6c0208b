package workload

import (
	"github.com/ddlsim/ddlsim/model/config"
)

// Every workload kind says how many client connections it opens (config.Clients: they count
// toward the client-thread limit) and what it would demand of a run (Demand: the input of
// runner.Estimate, printed by `ddlsim check` before anything runs).

// Demand is a workload's share of a run's estimate.
type Demand struct {
	Threads int
	// Statements is how many statements the clients would issue over the whole run (warm-up
	// included) if the server never made them wait: each statement costs its client round
	// trip and the profile's fixed statement CPU, an open-loop rate caps the total, and the
	// clients are active from their start to the end (or stop). An upper bound that the CPU
	// bound (runner.Estimate) tightens.
	Statements float64
}

// Demander is implemented by every workload kind.
type Demander interface {
	Demand(sc *config.Scenario) Demand
}

// statementsPerTxn is the statement count (queries, BEGIN/COMMIT included: the qps column)
// of one transaction of each sysbench mix (sysbench 1.0 oltp_common.lua with its defaults:
// 10 point selects, 1 each of the 4 range queries, 2 updates, 1 delete + 1 insert).
// TestDemandStatementsPerTxn checks them against the generators.
var statementsPerTxn = map[string]float64{
	"oltp_read_write":   20,
	"oltp_read_only":    16,
	"oltp_write_only":   6,
	"oltp_point_select": 1,
	"oltp_update_index": 1,
	"oltp_insert":       1,
}

// StatementsPerTxn is the statement count of one transaction of a sysbench mix, or of the
// tpcc deck for "tpcc" (0 when unknown).
func StatementsPerTxn(mix string) float64 {
	if mix == "tpcc" {
		return tpccStatementsPerTxn
	}
	return statementsPerTxn[mix]
}

// tpccStatementsPerTxn is the mean statement count of one transaction of the 10:10:1:1:1
// deck (TestDemandStatementsPerTxn measures it).
const tpccStatementsPerTxn = 27

// active is the simulated time the clients of a load starting at start (report clock; 0 =
// from the beginning, through warm-up) and stopping at stop (0 = the end) run.
func active(sc *config.Scenario, start, stop config.Duration, warmupToo bool) float64 {
	end := sc.Warmup + sc.Duration
	from := config.Duration(0)
	if start > 0 || !warmupToo {
		from = sc.Warmup + start
	}
	if stop > 0 {
		end = min(end, sc.Warmup+stop)
	}
	return max(0, (end - from).Seconds())
}

// perStatement is a closed-loop client's time per statement when nothing waits: its round
// trip, the fixed statement CPU and at least one row on one cached page.
func perStatement(sc *config.Scenario) float64 {
	hw := &sc.HardwareProfile
	c := &hw.Costs
	return max((hw.ClientRTT + c.Statement + c.Row + c.PageHit).Seconds(), 1e-9)
}

// commitWait is a committer's wait for the redo log when every commit syncs it
// (innodb_flush_log_at_trx_commit = 1): with group commit, the rest of the fsync in progress
// and the next one, about 1.5 fsyncs of the log device.
func commitWait(sc *config.Scenario) float64 {
	if sc.MySQL.FlushLogAtTrxCommit != 1 {
		return 0
	}
	st := &sc.HardwareProfile.Storage
	dev := st.Log
	if !dev.IsSet() {
		dev = st.Data
	}
	d := dev.Sync
	if d.Dist == "" {
		d = dev.Write
	}
	return 1.5 * typical(d).Seconds()
}

// typical is a latency distribution's median (the mean of an exponential).
func typical(d config.Distribution) config.Duration {
	switch d.Dist {
	case "constant":
		return d.Value
	case "exponential":
		return d.Mean
	case "lognormal":
		return d.P50
	case "empirical":
		for _, q := range d.Table {
			if q.Q >= 0.5 {
				return q.Value
			}
		}
	}
	return 0
}

// closedOrOpen is the statements threads issue in seconds: closed loop, each transaction
// of perTxn statements takes their round trips and CPU and, when it commits, the log wait;
// an open-loop rate (transactions/s over all threads) caps it.
func closedOrOpen(sc *config.Scenario, threads int, rate, perTxn float64, commits bool, seconds float64) float64 {
	txn := perTxn * perStatement(sc)
	if commits {
		txn += commitWait(sc)
	}
	n := float64(threads) * perTxn / txn * seconds
	if rate > 0 {
		n = min(n, rate*perTxn*seconds)
	}
	return n
}

func (b *Sysbench) ClientThreads() int { return maxPhaseThreads(b.Threads, b.Phases) }

// Demand: with phases, the most threads and the highest rate any phase has (an upper
// bound).
func (b *Sysbench) Demand(sc *config.Scenario) Demand {
	spt, ok := statementsPerTxn[b.Mix]
	if !ok {
		spt = 20
	}
	commits := b.Mix != "oltp_point_select"
	threads, rate := maxPhaseThreads(b.Threads, b.Phases), b.Rate
	for _, p := range b.Phases {
		if p.Rate != nil && (*p.Rate == 0 || rate > 0 && *p.Rate > rate) {
			rate = *p.Rate
		}
	}
	return Demand{Threads: threads, Statements: closedOrOpen(sc, threads, rate, spt, commits, active(sc, b.Start, b.Stop, true))}
}

func maxPhaseThreads(threads int, phases []Phase) int {
	for _, p := range phases {
		threads = max(threads, p.Threads)
	}
	return threads
}

func (p *TPCC) ClientThreads() int { return p.Threads }

func (p *TPCC) Demand(sc *config.Scenario) Demand {
	return Demand{Threads: p.Threads, Statements: closedOrOpen(sc, p.Threads, p.Rate, tpccStatementsPerTxn, true, active(sc, p.Start, 0, true))}
}

func (p *TempTableConnections) ClientThreads() int { return p.Threads }

// Demand: each loop is a connect and one statement, four round trips, the think time and
// the rows materialized.
func (p *TempTableConnections) Demand(sc *config.Scenario) Demand {
	hw := &sc.HardwareProfile
	loop := (4*hw.ClientRTT + p.Think + hw.Costs.Connect + hw.Costs.Statement).Seconds() +
		float64(p.TempRows)*hw.Costs.TempTableRow.Seconds()
	loops := float64(p.Threads) / max(loop, 1e-9) * active(sc, p.Start, p.Stop, false)
	return Demand{Threads: p.Threads, Statements: 2 * loops}
}

// OpenLoop: the clients send transactions at a fixed rate (rate > 0), as sysbench --rate
// does, so a slower server shows as queueing latency (model/runner's latency harm).
func (b *Sysbench) OpenLoop() bool {
	for _, p := range b.Phases {
		if p.Rate != nil && *p.Rate > 0 {
			return true
		}
	}
	return b.Rate > 0
}

// OpenLoop: as Sysbench's.
func (p *TPCC) OpenLoop() bool { return p.Rate > 0 }
