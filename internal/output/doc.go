// Package output is ddlsim's output room: every file a command writes, and the readers of
// those files, in one place (docs/output.md, docs/sweeps.md).
//
//   - A run directory (ddlsim run --out): the Bundle — series.csv, summary.json, ddl.csv,
//     mutexes.csv, config.yaml — staged in a sibling directory created before the run (Stage:
//     an --out that cannot be written is refused before simulating) and renamed into place.
//   - A results directory (compare, sweep, merge): the Manifest, one JSONL file per finished
//     point, results.jsonl and results.csv (Row, ColumnsOf), and the per-run series.
//   - The one series CSV writer (SeriesCSV), the one atomic file write (WriteFileAtomic), the
//     compare table (Tabulate, Print) and the build's Version.
//
// What the files hold — the series columns, the summary and key metrics, the statistics and
// the number format — is model/metrics', which computes and reads no files; this package
// formats and writes it. It reads the wall clock and the host name (a staging directory names
// its owner and ages), which nothing in model/ may.
package output
