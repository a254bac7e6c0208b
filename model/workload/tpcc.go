package workload

import (
	"fmt"

	"github.com/ddlsim/ddlsim/model/config"
	"github.com/ddlsim/ddlsim/model/schema"
	"github.com/ddlsim/ddlsim/model/server"
	"github.com/ddlsim/ddlsim/sim"
)

// TPCC is the `tpcc:` workload block: tpcc-mysql's driver on a tpcc data group.
type TPCC struct {
	Threads int             `yaml:"threads"`
	Data    string          `yaml:"data"` // name of a tpcc data group
	Rate    float64         `yaml:"rate"`
	Start   config.Duration `yaml:"start"`
}

func (p *TPCC) Defaults(sc *config.Scenario, d config.Defaulter) {
	d.Def("threads", p.Threads == 0, func() { p.Threads = 1 })
	if g := groupsOfKind(sc, "tpcc"); len(g) == 1 {
		d.Def("data", p.Data == "", func() { p.Data = g[0] })
	}
}

func (p *TPCC) Check(sc *config.Scenario, c *config.Checker) {
	c.Field("threads", p.Threads, config.AtLeast(1, "at least 1 thread"))
	if p.Data == "" {
		c.Errorf("data", nil, "missing: expected a name")
	} else {
		c.Table(sc, "data", p.Data, "tpcc")
	}
	c.Field("rate", p.Rate, config.AtLeast(0.0, "a rate >= 0 (0 = closed loop)"))
	c.Field("start", p.Start, config.AtLeast(0, "a duration >= 0"))
	c.Start(sc, "start", p.Start)
}

// tpcc is tpcc-mysql's driver: each client thread picks a random home warehouse per
// transaction and runs New-Order : Payment : Order-Status : Delivery : Stock-Level in the
// 10:10:1:1:1 deck tpcc-mysql deals (main.c seq[]). Statement → page mapping follows
// neword.c / payment.c / ordstat.c / delivery.c / slev.c.
type tpcc struct {
	srv *server.Server
	w   int64
	t   []*schema.Table
	// insert points of the growing tables, per (warehouse, district): the current leaf page
	// and rows placed in it.
	tails map[tailKey]*tail
}

type tailKey struct {
	table int
	wd    int64
}

type tail struct {
	page schema.PageID
	used int
}

const (
	tWarehouse = iota
	tDistrict
	tCustomer
	tHistory
	tNewOrders
	tOrders
	tOrderLine
	tStock
	tItem
)

// Launch spawns the tpcc client threads.
func (cfg *TPCC) Launch(env Env) (Running, error) {
	srv := env.Srv
	tabs := srv.Groups[cfg.Data]
	if len(tabs) != 9 {
		return nil, fmt.Errorf("tpcc: data group %q is not a tpcc group", cfg.Data)
	}
	w := tabs[tWarehouse].Rows
	tp := &tpcc{srv: srv, w: w, t: tabs, tails: map[tailKey]*tail{}}
	deck := []byte("NNNNNNNNNNPPPPPPPPPPODS") // 10:10:1:1:1
	startClients(srv, "tpcc", cfg.Threads, cfg.Rate, env.OnClock(cfg.Start), func(c *client, k int) bool {
		if k == 0 {
			c.deal = c.r.IntN(len(deck)) // each client starts at a random place in the deck
		}
		t := c.t
		start := c.pace()
		for !c.attempt(func() {
			t.LogFreeCheck()
			switch deck[(k+c.deal)%len(deck)] {
			case 'N':
				tp.newOrder(c)
			case 'P':
				tp.payment(c)
			case 'O':
				tp.orderStatus(c)
			case 'D':
				tp.delivery(c)
			case 'S':
				tp.stockLevel(c)
			}
			c.statement(0) // COMMIT: its round trip; the commit work is CommitWait's
			t.CommitWait()
			srv.Stats.Commits++
			srv.Stats.Others++
			c.endTxn()
		}) {
			// tpcc-mysql retries a transaction that hit a deadlock or a lock wait timeout; any
			// other error ends the client.
			if c.err != errLockWaitTimeout && c.err != errLockDeadlock {
				return false
			}
		}
		srv.RecordTxn(t.Now() - start)
		return true
	})
	return noSummary{}, nil
}

// nurand is TPC-C's NURand(A, x, y) with C = 0 (clause 2.1.6).
func nurand(c *client, a, x, y int64) int64 {
	return ((c.r.Int64N(a+1) | (x + c.r.Int64N(y-x+1))) % (y - x + 1)) + x
}

func (tp *tpcc) stmt(c *client, rows int64) {
	co := &tp.srv.Costs
	c.statement(co.Statement + sim.Time(rows)*co.Row)
}

func (tp *tpcc) read(c *client, table int, row int64) {
	c.use(tp.t[table], false)
	ix := tp.t[table].Primary
	c.path = ix.Path(c.path[:0], ix.LeafOf(row%ix.Rows))
	c.t.Search(ix, c.path, false)
}

func (tp *tpcc) write(c *client, table int, row int64) {
	c.use(tp.t[table], true)
	ix := tp.t[table].Primary
	c.path = ix.Path(c.path[:0], ix.LeafOf(row%ix.Rows))
	c.t.Search(ix, c.path, true)
	c.logUndo(server.UndoUpdNoKey, tp.t[table], row%ix.Rows) // an UPDATE of non-key columns
}

func (tp *tpcc) readSec(c *client, table int, row int64) {
	c.use(tp.t[table], false)
	sec := tp.t[table].Secondary[0]
	c.path = sec.Path(c.path[:0], sec.LeafOf(row%sec.Rows))
	c.t.Search(sec, c.path, false)
}

// insert appends a row at the (warehouse, district) insert point of a growing table; a new
// page is allocated when the current one is full.
func (tp *tpcc) insert(c *client, table int, wd int64) {
	s := tp.srv
	tab := tp.t[table]
	c.use(tab, true)
	k := tailKey{table, wd}
	tl := tp.tails[k]
	if tl == nil || tl.used >= tab.Primary.LeafRecs {
		sp := s.Spaces.Get(tab.Space)
		tl = &tail{page: schema.MakePageID(tab.Space, sp.NextPage)}
		sp.NextPage++
		tp.tails[k] = tl
		c.t.NewPage(tl.page)
	} else {
		c.t.Write(tl.page)
	}
	tl.used++
	c.writeUndo()
}

// recent reads the current insert page of a growing table (recent orders / lines).
func (tp *tpcc) recent(c *client, table int, wd int64) {
	c.use(tp.t[table], false)
	if tl := tp.tails[tailKey{table, wd}]; tl != nil {
		c.t.Read(tl.page)
		return
	}
	ix := tp.t[table].Primary
	per := ix.Rows / (tp.w * 10)
	tp.read(c, table, wd*per+per-1)
}

func (tp *tpcc) newOrder(c *client) {
	s := tp.srv
	w := c.r.Int64N(tp.w)
	d := c.r.Int64N(10)
	wd := w*10 + d
	cust := wd*3000 + nurand(c, 1023, 1, 3000) - 1
	tp.stmt(c, 2)
	tp.read(c, tWarehouse, w)
	tp.read(c, tCustomer, cust)
	tp.stmt(c, 1)
	tp.write(c, tDistrict, wd) // d_next_o_id
	tp.stmt(c, 1)
	tp.insert(c, tOrders, wd)
	tp.stmt(c, 1)
	tp.insert(c, tNewOrders, wd)
	n := 5 + c.r.Int64N(11)
	for i := int64(0); i < n; i++ {
		item := nurand(c, 8191, 1, 100000) - 1
		sw := w
		if c.r.IntN(100) == 0 && tp.w > 1 { // 1% remote supply warehouse
			sw = c.r.Int64N(tp.w)
		}
		tp.stmt(c, 1)
		tp.read(c, tItem, item)
		tp.stmt(c, 1)
		tp.read(c, tStock, sw*100000+item)
		tp.stmt(c, 1)
		tp.write(c, tStock, sw*100000+item)
		tp.stmt(c, 1)
		tp.insert(c, tOrderLine, wd)
	}
	s.Stats.Reads += uint64(2 + 2*n)
	s.Stats.Writes += uint64(3 + 2*n)
	s.Stats.IUD += uint64(3 + 2*n)
}

func (tp *tpcc) customer(c *client, wd int64) int64 {
	cust := wd*3000 + nurand(c, 1023, 1, 3000) - 1
	if c.r.IntN(100) < 60 { // by last name: the secondary index, then the row
		tp.stmt(c, 3)
		tp.readSec(c, tCustomer, cust)
		tp.srv.Stats.Reads++
	}
	tp.stmt(c, 1)
	tp.read(c, tCustomer, cust)
	tp.srv.Stats.Reads++
	return cust
}

func (tp *tpcc) payment(c *client) {
	s := tp.srv
	w := c.r.Int64N(tp.w)
	wd := w*10 + c.r.Int64N(10)
	tp.stmt(c, 1)
	tp.write(c, tWarehouse, w)
	tp.stmt(c, 1)
	tp.read(c, tWarehouse, w)
	tp.stmt(c, 1)
	tp.write(c, tDistrict, wd)
	tp.stmt(c, 1)
	tp.read(c, tDistrict, wd)
	cust := tp.customer(c, wd)
	tp.stmt(c, 1)
	tp.write(c, tCustomer, cust)
	tp.stmt(c, 1)
	tp.insert(c, tHistory, 0)
	s.Stats.Reads += 2
	s.Stats.Writes += 4
	s.Stats.IUD += 4
}

func (tp *tpcc) orderStatus(c *client) {
	s := tp.srv
	w := c.r.Int64N(tp.w)
	wd := w*10 + c.r.Int64N(10)
	cust := tp.customer(c, wd)
	tp.stmt(c, 1)
	tp.readSec(c, tOrders, cust*10)
	tp.stmt(c, 10)
	tp.recent(c, tOrderLine, wd)
	s.Stats.Reads += 2
}

func (tp *tpcc) delivery(c *client) {
	s := tp.srv
	w := c.r.Int64N(tp.w)
	for d := int64(0); d < 10; d++ {
		wd := w*10 + d
		tp.stmt(c, 1)
		tp.recent(c, tNewOrders, wd)
		tp.stmt(c, 1)
		tp.write(c, tNewOrders, wd*900) // delete the oldest new order
		tp.stmt(c, 1)
		tp.write(c, tOrders, wd*3000)
		tp.stmt(c, 10)
		tp.write(c, tOrderLine, wd*30000)
		tp.stmt(c, 10)
		tp.recent(c, tOrderLine, wd)
		tp.stmt(c, 1)
		tp.write(c, tCustomer, wd*3000+c.r.Int64N(3000))
	}
	s.Stats.Reads += 30
	s.Stats.Writes += 40
	s.Stats.IUD += 40
}

func (tp *tpcc) stockLevel(c *client) {
	s := tp.srv
	w := c.r.Int64N(tp.w)
	wd := w*10 + c.r.Int64N(10)
	tp.stmt(c, 1)
	tp.read(c, tDistrict, wd)
	tp.stmt(c, 200)
	tp.recent(c, tOrderLine, wd)
	for i := 0; i < 200; i++ {
		item := nurand(c, 8191, 1, 100000) - 1
		tp.read(c, tStock, w*100000+item)
	}
	s.Stats.Reads += 2
}
