// Package sweep runs many independent simulations — the points of a parameter sweep, or the
// policies × seeds of `ddlsim compare` — on all local cores (Each, the worker pool ddlsim
// validate shares) or as shards of a cluster array job, and keeps their results in a
// directory that survives being killed. The files of that directory, their rows and their
// statistics are internal/output's and model/metrics'; this package keeps only the sweeps:
// specs, points × seeds, sharding and merge.
//
// # Model
//
// A Spec names a base scenario and axes over scenario fields by path (the same paths as
// `--set`). Axes are blocks combined as a cartesian product, first block outermost: a `grid`
// block is itself the product of its lists, a `zip` block walks equal-length lists in step, a
// `points` block lists explicit assignments. Enumerating the blocks gives the points, numbered
// 0..N-1 in that order; the number is the point id. Each point runs with `seeds` consecutive
// seeds starting at the spec's `seed` (default: the base scenario's), so every point sees the
// same seeds (common random numbers, which makes differences between points less noisy).
//
// # Determinism and wall time
//
// A run depends only on (scenario, params, seed). Runs are distributed over a worker pool
// (`--jobs`), and results are always written sorted by (point id, seed), so output does not
// depend on the number of jobs, on scheduling, on sharding or on resuming. The one exception is
// the `wall_time_s` field: it is always the last field of a JSONL row and the last column of the
// CSV, and every comparison (tests, .ci/slurm-test.sh) strips it first (output.StripWallTime).
//
// # Crash safety
//
// A point's rows are written to points/pNNNNNN.jsonl by write-to-temp + fsync + rename once all
// of its seeds are done, so a killed sweep loses at most the points in flight. The combined
// results.jsonl and results.csv are regenerated from points/ at the end; `--resume` reruns only
// the points whose file is missing, after checking the manifest's spec hash.
//
// # Sharding
//
// Shard i of n runs the points whose id ≡ i (mod n). Shards write separate directories; Merge
// checks they ran the same spec (spec hash) and that every point is present exactly once, then
// writes the same combined files an unsharded sweep would. See docs/sweeps.md.
package sweep
