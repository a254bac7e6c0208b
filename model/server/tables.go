package server

import (
	"fmt"
	"strings"

	"github.com/ddlsim/ddlsim/model/bufpool"
	"github.com/ddlsim/ddlsim/model/config"
	"github.com/ddlsim/ddlsim/model/schema"
)

// TPC-C tables as tpcc-mysql creates them (create_table.sql): rows per warehouse, row bytes
// (column payload), primary-key bytes and secondary-index entry bytes. Sizes are the schema's
// declared widths at their typical fill (TPC-C spec clause 1.3, tpcc-mysql DDL).
var tpccTables = []struct {
	Name      string
	PerWH     int64 // rows per warehouse (item: total, not per warehouse)
	RowBytes  int
	PKBytes   int
	Secondary []int
}{
	{"warehouse", 1, 89, 2, nil},
	{"district", 10, 95, 3, nil},
	{"customer", 30_000, 655, 7, []int{2 + 1 + 16 + 16}}, // idx_customer (c_w_id,c_d_id,c_last,c_first)
	{"history", 30_000, 46, 6, nil},                      // no PK: 6-byte DB_ROW_ID
	{"new_orders", 9_000, 8, 8, nil},
	{"orders", 30_000, 24, 8, []int{2 + 1 + 4 + 4}}, // idx_orders (o_w_id,o_d_id,o_c_id,o_id)
	{"order_line", 300_000, 54, 9, nil},
	{"stock", 100_000, 306, 6, nil},
	{"item", 100_000, 82, 4, nil},
}

// TPCCTableIndex returns the position of a TPC-C table name in a group's table list.
func TPCCTableIndex(name string) int {
	for i, t := range tpccTables {
		if t.Name == name {
			return i
		}
	}
	panic("unknown tpcc table " + name)
}

// buildTables creates the tablespaces and B-tree shapes of every data group.
func (s *Server) buildTables() {
	s.Groups = map[string][]*schema.Table{}
	for _, g := range s.Scenario.Data {
		var tabs []*schema.Table
		switch g.Kind {
		case "tpcc":
			w := int64(g.Warehouses)
			for _, d := range tpccTables {
				rows := d.PerWH * w
				if d.Name == "item" {
					rows = d.PerWH
				}
				sp := s.Spaces.New(g.Name + "." + d.Name)
				t := schema.NewTable(sp.Name, g.Name, sp.ID, rows, d.RowBytes, d.PKBytes, d.Secondary, s.PageSize)
				t.Kind = schema.KindTPCC
				for _, c := range g.Columns {
					if t.ColumnSizes == nil {
						t.ColumnSizes = map[string]int{}
					}
					t.ColumnSizes[strings.ToLower(c.Name)] = int(c.Size)
				}
				sp.Table, sp.NextPage, sp.Loaded = t, t.NextPage, t.NextPage
				tabs = append(tabs, t)
			}
		default: // sysbench, insert_benchmark
			// sysbench: the k index unless set; insert_benchmark: the primary key only (the
			// reference loads the table, then adds its secondary indexes).
			nsec := 1
			if g.Kind == schema.KindInsertBenchmark {
				nsec = 0
			}
			if g.SecondaryIndexes != nil {
				nsec = *g.SecondaryIndexes
			}
			rows := int64(g.Rows)
			if rows == 0 && g.Size > 0 {
				rows = schema.RowsForSizeOf(g.Kind, int64(g.Size), s.PageSize, nsec, int(g.RowSize))
			}
			n := g.Tables
			if n < 1 {
				n = 1
			}
			for i := 1; i <= n; i++ {
				name := g.Name
				if n > 1 {
					name = fmt.Sprintf("%s%d", g.Name, i)
				}
				sp := s.Spaces.New(name)
				var t *schema.Table
				if g.Kind == schema.KindInsertBenchmark {
					t = schema.NewInsertBenchmarkTableRow(name, g.Name, sp.ID, rows, nsec, s.PageSize, int(g.RowSize))
				} else {
					t = schema.NewSysbenchTableRow(name, g.Name, sp.ID, rows, nsec, s.PageSize, int(g.RowSize))
				}
				sp.Table, sp.NextPage, sp.Loaded = t, t.NextPage, t.NextPage
				tabs = append(tabs, t)
			}
		}
		s.Groups[g.Name] = tabs
		s.Tables = append(s.Tables, tabs...)
	}
}

// Warm fills the pool to the scenario's warm.fill fraction, as a long-running server would be:
// every internal (non-leaf) page first (they are the hottest), then leaves of all tables
// round-robin from the start of each index (where sysbench's special distribution and TPC-C's
// low warehouse ids put the hot keys). No page is dirty at start; the warm-up period builds
// the steady dirty set.
func (s *Server) Warm() {
	s.warmFill()
	s.warmDirty()
}

// warmDirty makes warm.dirty of the warm pages dirty, as a server that has been taking writes
// has them: an even stride through each instance's LRU, first modifications in LSN order
// interleaved across instances, one row change of redo apart — but spread over at most half
// of the async flush point's checkpoint age, so a run does not start in furious flushing. The
// page cleaners then see a flush list and a checkpoint age from the first second instead of
// building them up during warm-up.
func (s *Server) warmDirty() {
	d := s.Scenario.Warm.DirtyFraction
	if d <= 0 {
		return
	}
	chosen := make([][]bufpool.FrameID, len(s.Inst))
	total := 0
	for i, in := range s.Inst {
		bp := in.BP
		want := int(d*float64(bp.LRULen()) + 0.5)
		if want == 0 {
			continue
		}
		stride := float64(bp.LRULen()) / float64(want)
		next, k := 0.0, 0
		for f := bp.LRUTail(); f != bufpool.Nil && len(chosen[i]) < want; f = bp.LRUPrev(f) {
			if float64(k) >= next {
				chosen[i] = append(chosen[i], f)
				next += stride
			}
			k++
		}
		total += len(chosen[i])
	}
	if total == 0 {
		return
	}
	step := uint64(redoPerPage)
	if limit := s.Redo.AsyncAge / 2; uint64(total)*step > limit {
		step = max(1, limit/uint64(total))
	}
	for k := 0; ; k++ {
		any := false
		for i, in := range s.Inst {
			if k < len(chosen[i]) {
				any = true
				in.BP.MarkDirty(chosen[i][k], s.Redo.Advance(step))
			}
		}
		if !any {
			return
		}
	}
}

func (s *Server) warmFill() {
	fill := s.Scenario.Warm.Fill
	target := int(fill * float64(s.Frames()))
	placed := 0
	// Every page below is placed once (indexes occupy disjoint page ranges of their own
	// tablespaces), so no lookup is needed before placing it: on a 180 GiB pool the lookups
	// were two thirds of the warm fill's wall time. Pages are queued per instance and
	// installed a batch at a time (AddPagesOld overlaps the batch's page-hash cache misses);
	// each instance receives the same pages in the same order as page by page, so the pool
	// ends in the same state. free counts each instance's free frames not yet spoken for.
	const batch = 256
	pend := make([][]bufpool.PageID, len(s.Inst))
	free := make([]int, len(s.Inst))
	for i, in := range s.Inst {
		free[i] = in.BP.FreeLen()
	}
	flush := func(i int) {
		// No page starts with AHI entries: the workload's searches build them (ahi.go).
		s.Inst[i].BP.AddPagesOld(pend[i], false)
		pend[i] = pend[i][:0]
	}
	defer func() {
		for i := range pend {
			flush(i)
		}
	}()
	n := uint64(len(s.Inst))
	add := func(pid schema.PageID) bool {
		if placed >= target {
			return false
		}
		// InstanceOf's fold, kept as an index for the queues.
		space, page := uint64(pid.Space()), uint64(pid.Page()>>6)
		i := int(((space << 20) + space + page) % n)
		if s.Inst[i] != s.InstanceOf(pid) {
			panic("server: Warm's instance fold disagrees with InstanceOf")
		}
		if free[i] == 0 {
			return true // this instance is full; others may not be
		}
		free[i]--
		pend[i] = append(pend[i], bufpool.PageID(pid))
		if len(pend[i]) == batch {
			flush(i)
		}
		placed++
		return true
	}
	var idx []*schema.Index
	for _, t := range s.Tables {
		idx = append(idx, t.Primary)
		idx = append(idx, t.Secondary...)
	}
	for _, ix := range idx {
		for l := 0; l < ix.Depth-1; l++ {
			for p := int64(0); p < ix.LevelPages[l]; p++ {
				if !add(ix.Page(l, p)) {
					return
				}
			}
		}
	}
	if len(s.Scenario.Warm.Tables) > 0 {
		s.warmHotSets(add)
		return
	}
	for leaf := int64(0); ; leaf++ {
		any := false
		for _, ix := range idx {
			if leaf < ix.LeafPages() {
				any = true
				if !add(ix.Leaf(leaf)) {
					return
				}
			}
		}
		if !any {
			return
		}
	}
}

// warmHotSets places the leaves of warm.tables' groups first, each group up to its fill of
// its leaf pages (round-robin over the group's indexes, from the start of each), in list
// order, then the other groups' leaves round-robin, until the pool's fill; add returns false
// when the fill is reached.
func (s *Server) warmHotSets(add func(schema.PageID) bool) {
	listed := map[string]bool{}
	roundRobin := func(idx []*schema.Index, limit func(ix *schema.Index) int64) bool {
		for leaf := int64(0); ; leaf++ {
			any := false
			for _, ix := range idx {
				if leaf < limit(ix) {
					any = true
					if !add(ix.Leaf(leaf)) {
						return false
					}
				}
			}
			if !any {
				return true
			}
		}
	}
	for _, w := range s.Scenario.Warm.Tables {
		listed[w.Name] = true
		var idx []*schema.Index
		for _, t := range s.Groups[w.Name] {
			idx = append(idx, t.Indexes()...)
		}
		fill := w.Fill
		if !roundRobin(idx, func(ix *schema.Index) int64 { return int64(fill * float64(ix.LeafPages())) }) {
			return
		}
	}
	var rest []*schema.Index
	for _, t := range s.Tables {
		if !listed[t.Group] {
			rest = append(rest, t.Indexes()...)
		}
	}
	roundRobin(rest, func(ix *schema.Index) int64 { return ix.LeafPages() })
}

// ResolveTables returns the tables a DDL's `table:` names: a table by name (sbtest7), a group's
// n-th table (sbtest[7], 1-based), or a group — its first table, or with each all of them in
// order. Dropped tables are included (the statement then fails on them).
func (s *Server) ResolveTables(name string, each bool) []*schema.Table {
	if g, n, ok := config.TableIndex(name); ok {
		if tabs := s.Groups[g]; n >= 1 && n <= len(tabs) {
			return tabs[n-1 : n]
		}
		return nil
	}
	if tabs := s.Groups[name]; len(tabs) > 0 {
		if each {
			return tabs
		}
		return tabs[:1]
	}
	for _, t := range s.Tables {
		if t.Name == name {
			return []*schema.Table{t}
		}
	}
	return nil
}
