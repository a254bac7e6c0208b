package ddl

import (
	"fmt"

	"github.com/ddlsim/ddlsim/model/config"
	"github.com/ddlsim/ddlsim/model/schema"
)

// The sort files an index build will need, checked against the temp device's capacity before
// the run (a warning), as the build itself fails when it runs out (indexbuild's allocTemp:
// ER_TEMP_FILE_WRITE_FAILURE, what the server reports when innodb_tmpdir fills).

// TempWarnings is the sort-file check, one of the assembly's config.Schema.Warners.
func TempWarnings(sc *config.Scenario) []config.Warning { return tempWarnings(sc) }

// sortFileBytes is the temp space a merge sort of rows entries of entryBytes needs at its
// peak: the runs written by the scan, and the merge writing each pass into a second file of
// the same size before the first is freed (row_merge_sort: file and tmpfd), so about twice the
// entries.
func sortFileBytes(rows, entryBytes int64) int64 { return 2 * rows * entryBytes }

// tempNeed is the sort-file estimate of schedule entry ev on sc (0: it sorts nothing, or its
// table's kind is not estimated).
func tempNeed(sc *config.Scenario, ev config.DDLEvent) int64 {
	var ci *CreateIndex
	switch p := ev.Params.(type) {
	case *CreateIndex:
		if p.Engine == "myrocks" {
			return 0
		}
		ci = p
	case *OptimizeTable:
	default:
		return 0
	}
	group, _, _ := config.TableIndex(ev.Table)
	if group == "" {
		group = ev.Table
	}
	for _, g := range sc.Data {
		if g.Name != group && !(len(ev.Table) > len(g.Name) && ev.Table[:len(g.Name)] == g.Name) {
			continue
		}
		if g.Kind == "tpcc" {
			return 0
		}
		nsec := 1
		if g.Kind == schema.KindInsertBenchmark {
			nsec = 0
		}
		if g.SecondaryIndexes != nil {
			nsec = *g.SecondaryIndexes
		}
		page := int64(sc.MySQL.PageSize)
		rows := int64(g.Rows)
		if rows == 0 && g.Size > 0 {
			rows = schema.RowsForSizeOf(g.Kind, int64(g.Size), page, nsec, int(g.RowSize))
		}
		var t *schema.Table
		if g.Kind == schema.KindInsertBenchmark {
			t = schema.NewInsertBenchmarkTableRow(g.Name, g.Name, 0, rows, nsec, page, int(g.RowSize))
		} else {
			t = schema.NewSysbenchTableRow(g.Name, g.Name, 0, rows, nsec, page, int(g.RowSize))
		}
		var need int64
		if ci != nil {
			for _, d := range t.NewIndexes(ci.Columns, max(ci.Indexes, 1)) {
				need += sortFileBytes(rows, int64(d.EntryBytes))
			}
			return need
		}
		for _, s := range t.Secondary { // a rebuild sorts its secondary indexes (the PK is loaded in order)
			need += sortFileBytes(rows, int64(s.RecordBytes))
		}
		return need
	}
	return 0
}

func tempWarnings(sc *config.Scenario) []config.Warning {
	capacity := tmpdirSpace(&sc.HardwareProfile)
	if capacity <= 0 {
		return nil
	}
	var out []config.Warning
	for i, ev := range sc.Schedule {
		if need := tempNeed(sc, ev); float64(need) > 0.9*float64(capacity) { // an estimate: warn when close
			out = append(out, config.Warning{Path: fmt.Sprintf("schedule[%d].ddl", i), Msg: fmt.Sprintf(
				"%s on %s needs about %s of sort files (twice its index entries: the merge writes each pass into a second file), and the temp device holds %s: the build will likely fail with ER_TEMP_FILE_WRITE_FAILURE, as the server's does when innodb_tmpdir fills; give hardware.storage.temp a larger capacity (or point innodb_tmpdir at a larger disk)",
				ev.DDL, ev.Table, mib(need), mib(capacity))})
		}
	}
	return out
}

func mib(b int64) string { return fmt.Sprintf("%.1f MiB", float64(b)/(1<<20)) }
