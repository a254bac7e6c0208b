package runner

import (
	"sort"
	"testing"

	"github.com/ddlsim/ddlsim/model/config"
	"github.com/ddlsim/ddlsim/model/metrics"
)

// StatNames is worked out from the configuration; the oracle is a real run: every statistic
// the run reports must be listed (a missing one would make validate refuse a good file), and
// names the run cannot have must not be.
func TestStatNamesCoverARun(t *testing.T) {
	sc, err := config.LoadWith("../../cmd/ddlsim/testdata/small.yaml", []string{
		"duration=4s",
		"workload[1]={other_cpu: {util: 0.1}}",
		"workload[2]={temp_table_connections: {temp_rows: 100, start: 1s}}",
		"schedule[1]={at: 3s, ddl: drop_table, table: big}",
	}, nil)
	if err != nil {
		t.Fatal(err)
	}
	res, err := Run(sc, Options{})
	if err != nil {
		t.Fatal(err)
	}
	names := StatNames(sc)
	stats := metrics.RunStats(res.Summary, res.DDL, &res.Series, sc.HardwareProfile.Cores)
	var keys []string
	for k := range stats {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		if !MatchStat(names, k) {
			t.Errorf("the run reports %s, StatNames does not list it", k)
		}
	}
	for _, k := range []string{"temp_loop_iud_ratio", "ddl0_create_index_scan_s", "ddl1_drop_table_duration_s", "cpu_us_per_txn.other_cpu_util"} {
		if _, ok := stats[k]; !ok {
			t.Errorf("the run lacks %s: the test no longer exercises it", k)
		}
	}
	for _, k := range []string{"tps_men", "ddl2_create_index_duration_s", "ddl0_drop_table_duration_s", "ddl0_create_index_bogus_s",
		"mean.nosuch", "cpu_us_per_txn.tps", "ddl_all_truncate_table_count"} {
		if MatchStat(names, k) {
			t.Errorf("StatNames accepts %s, which no run of the scenario has", k)
		}
	}
}

func TestMatchStatPatterns(t *testing.T) {
	names := []string{"ddl*_drop_table_duration_s", "ddl0_create_index_merge_pass_*_s", "tps_mean"}
	for name, want := range map[string]bool{
		"ddl12_drop_table_duration_s": true, "ddl_drop_table_duration_s": false,
		"ddl0_create_index_merge_pass_3_s": true, "ddl0_create_index_merge_pass__s": false,
		"tps_mean": true, "tps_mea": false, "tps_means": false,
	} {
		if got := MatchStat(names, name); got != want {
			t.Errorf("MatchStat(%s) = %v, want %v", name, got, want)
		}
	}
}
