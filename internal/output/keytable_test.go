package output

import (
	"bytes"
	"strings"
	"testing"

	"github.com/ddlsim/ddlsim/model/metrics"
)

func harmRow(point int, value string, ddl ...metrics.DDLResult) Row {
	return Row{Point: point, Params: Params{{Path: "mysql.innodb_ddl_threads", Value: value}}, DDL: ddl}
}

// Rank puts the least harm first under each criterion, a failed statement last, and breaks
// ties with the worst p99; the key table lists the settings in that order.
func TestRankByHarm(t *testing.T) {
	slo := func(above, p99 float64) metrics.DDLResult {
		return metrics.DDLResult{Op: "create_index", DurationS: 10, LatP99Ms: p99, Latency: &metrics.LatencyHarm{SLO: "p99=5ms", AboveSLOS: above}}
	}
	rows := []Row{
		harmRow(0, "1", slo(30, 9)), harmRow(0, "1", slo(20, 9)),
		harmRow(1, "2", slo(5, 9)), harmRow(1, "2", slo(5, 8)),
		harmRow(2, "4", slo(5, 6)), harmRow(2, "4", slo(5, 7)),
		harmRow(3, "8", metrics.DDLResult{Op: "create_index", Failed: true}),
	}
	h := HarmOf(rows)
	if h.Name != "above_slo_s" {
		t.Fatalf("criterion %s, want above_slo_s", h.Name)
	}
	var order []string
	ranked := Rank(GroupByPoint(rows), h)
	for _, g := range ranked {
		order = append(order, g.Params[0].Value)
	}
	if strings.Join(order, ",") != "4,2,1,8" {
		t.Errorf("ranked %v, want 4 (ties with 2 on seconds, lower p99), 2, 1, 8 (failed)", order)
	}
	var b bytes.Buffer
	if err := PrintKeyTable(&b, ranked, h, true); err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSpace(b.String()), "\n")
	if len(lines) != 5 || !strings.HasPrefix(lines[1], "1     4") || !strings.Contains(lines[4], "failed") {
		t.Errorf("key table:\n%s", b.String())
	}

	// Closed loop: the transactions lost (lost_txns; a negative one counts as none).
	closed := []Row{
		harmRow(0, "1", metrics.DDLResult{DurationS: 100, BaselineTPS: 1000, MeanTPS: 990, LostTxns: 1000}),
		harmRow(1, "8", metrics.DDLResult{DurationS: 20, BaselineTPS: 1000, MeanTPS: 900, LostTxns: 2000}),
		harmRow(2, "16", metrics.DDLResult{DurationS: 200, BaselineTPS: 1000, MeanTPS: 1010, LostTxns: -1500}),
	}
	h = HarmOf(closed)
	if g := Rank(GroupByPoint(closed), h); h.Name != "lost_txns" || g[0].Params[0].Value != "16" || g[1].Params[0].Value != "1" {
		t.Errorf("closed loop: %s ranks %s, %s first, want lost_txns and 16 (none lost), 1", h.Name, g[0].Params[0].Value, g[1].Params[0].Value)
	}
}
