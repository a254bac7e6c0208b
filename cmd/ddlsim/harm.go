package main

import (
	"fmt"
	"io"
	"strings"
	"text/tabwriter"

	"github.com/ddlsim/ddlsim/model/metrics"
)

// printLatencyHarm prints, after the DDL table, what each statement did to latency: the
// quantiles of the transactions before it and during it, with an SLO the seconds the SLO's
// interval quantile spent above it, and the transactions the load did not do while it ran
// against its baseline rate (lost_txns; docs/output.md, "Latency harm"). Nothing for a run
// that did not measure it (closed-loop traffic without an SLO).
func printLatencyHarm(w io.Writer, ddl []metrics.DDLResult) {
	if len(ddl) == 0 || len(ddl) > metrics.ListedDDLs || ddl[0].Latency == nil {
		return
	}
	slo := ddl[0].Latency.SLO
	if slo != "" {
		fmt.Fprintf(w, "\nlatency harm (before → during the statement; SLO %s on each interval):\n", slo)
	} else {
		fmt.Fprintln(w, "\nlatency harm (before → during the statement):")
	}
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	head := "  op\ttable\tp50_ms\tp95_ms\tp99_ms"
	if slo != "" {
		head += "\tabove_slo_s\tbreaches"
	}
	head += "\tlost_txns"
	fmt.Fprintln(tw, head)
	arrow := func(a, b float64) string { return human(a) + " → " + human(b) }
	for _, d := range ddl {
		h := d.Latency
		if h == nil {
			continue
		}
		line := fmt.Sprintf("  %s\t%s\t%s\t%s\t%s", d.Op, d.Table, arrow(h.BaseP50Ms, h.P50Ms),
			arrow(h.BaseP95Ms, d.LatP95Ms), arrow(h.BaseP99Ms, d.LatP99Ms))
		if slo != "" {
			line += fmt.Sprintf("\t%s\t%s", human(h.AboveSLOS), human(h.SLOBreaches))
		}
		line += "\t" + human(d.LostTxns)
		fmt.Fprintln(tw, line)
	}
	tw.Flush()
}

// sloFlag is --slo QUANTILE=LATENCY, shorthand for --set slo=QUANTILE=LATENCY: the latency
// objective each DDL statement's harm is measured against.
type sloFlag struct{ sets *[]string }

func (s sloFlag) String() string { return "" }

func (s sloFlag) Set(v string) error {
	if !strings.Contains(v, "=") {
		return usagef("--slo wants QUANTILE=LATENCY such as p99=5ms, got %q", v)
	}
	*s.sets = append(*s.sets, "slo="+v)
	return nil
}

const sloUsage = "latency objective `QUANTILE=LATENCY` (p50, p95 or p99 of each report interval, e.g. p99=5ms): measure each DDL statement's seconds above it (shorthand for --set slo=...)"
