package config

import (
	"fmt"
	"strconv"
	"strings"
)

// A DDL's `table:` names a table (sbtest7, or tpcc.stock), a group's n-th table (sbtest[7],
// 1-based) or a group (its first table; with `each: true`, every table of the group).

// TableIndex splits "group[n]" into its group and n.
func TableIndex(ref string) (group string, n int, ok bool) {
	g, rest, found := strings.Cut(ref, "[")
	if !found || !strings.HasSuffix(rest, "]") {
		return "", 0, false
	}
	n, err := strconv.Atoi(strings.TrimSuffix(rest, "]"))
	if err != nil {
		return "", 0, false
	}
	return g, n, true
}

// TableNames lists the tables a group creates, as the server names them.
func TableNames(t *Table) []string {
	if t.Kind == "tpcc" {
		return []string{t.Name + ".warehouse", t.Name + ".district", t.Name + ".customer", t.Name + ".history",
			t.Name + ".new_orders", t.Name + ".orders", t.Name + ".order_line", t.Name + ".stock", t.Name + ".item"}
	}
	n := max(t.Tables, 1)
	if n == 1 {
		return []string{t.Name}
	}
	out := make([]string, n)
	for i := range out {
		out[i] = fmt.Sprintf("%s%d", t.Name, i+1)
	}
	return out
}

// checkTableRef judges a DDL's table reference; "" means fine.
func checkTableRef(sc *Scenario, ref string, each bool) string {
	if g, n, ok := TableIndex(ref); ok {
		for i := range sc.Data {
			if t := &sc.Data[i]; t.Name == g {
				if k := len(TableNames(t)); n < 1 || n > k {
					return fmt.Sprintf("group %q has %d tables: expected %s[1] to %s[%d]", g, k, g, g, k)
				}
				if each {
					return "each runs over a whole group: name the group, not one of its tables"
				}
				return ""
			}
		}
		return fmt.Sprintf("no data group named %q (data names: %s)", g, groupNames(sc))
	}
	for i := range sc.Data {
		if sc.Data[i].Name == ref {
			return ""
		}
	}
	for i := range sc.Data {
		for _, name := range TableNames(&sc.Data[i]) {
			if name == ref {
				if each {
					return "each runs over a whole group: name the group, not one of its tables"
				}
				return ""
			}
		}
	}
	return fmt.Sprintf("no data group or table named %q (data names: %s)", ref, groupNames(sc))
}
