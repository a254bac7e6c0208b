package metrics

// Columns of the per-interval series, in the order the recorder (model/runner) fills a row
// (docs/output.md). Readers look columns up by name; the model adds columns over time.
var Columns = []string{
	"time_s", "tps", "qps", "reads_per_s", "writes_per_s", "other_per_s", "iud_per_s", "commits_per_s",
	"lat_p50_ms", "lat_p95_ms", "lat_p99_ms", "lat_max_ms",
	"hit_ratio", "free_pages", "dirty_pages", "lru_pages", "pages_read_per_s", "pages_written_per_s",
	"lru_mutex_wait_ms_per_s", "free_mutex_wait_ms_per_s", "flush_mutex_wait_ms_per_s", "cpu_util",
	"checkpoint_age_mb", "temp_truncations_per_s", "ddl_active",
	"made_young_per_s", "single_page_flushes_per_s", "free_waits_per_s", "runnable", "temp_sessions_closing",
	"mdl_waiting", "err_per_s", "redo_mb_per_s", "threads_running",
	"read_requests_per_s", "history_length", "purge_lookups_per_s", "purge_removed_per_s",
}

// CPUColumns are the series columns a run adds after Columns when its cores are shared with
// a co-located client (hardware.client) or other processes (an other_cpu workload): each
// one's share of the machine, and the server's (cpu_util less the others), as the lab
// reports them.
var CPUColumns = []string{"server_cpu_util", "client_cpu_util", "other_cpu_util"}

// StaleColumns are the series columns a MariaDB run adds last: the resident pages of dropped
// tablespaces, which MariaDB leaves in the pool to be freed when an eviction scan or a flush
// batch meets them (docs/mariadb-write-path.md §5.5), and how many of them are dirty (they
// hold back the checkpoint until a batch discards them).
var StaleColumns = []string{"stale_pages", "stale_dirty_pages"}

// SeriesColumns is a run's series layout: Columns, then CPUColumns when the cores are shared,
// then StaleColumns for a MariaDB server (stale).
func SeriesColumns(shared, stale bool) []string {
	if !shared && !stale {
		return Columns
	}
	cols := append([]string(nil), Columns...)
	if shared {
		cols = append(cols, CPUColumns...)
	}
	if stale {
		cols = append(cols, StaleColumns...)
	}
	return cols
}
