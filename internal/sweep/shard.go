package sweep

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/ddlsim/ddlsim/internal/output"
)

// Shard selects the points whose id ≡ Index (mod Count); it is recorded in the manifest.
type Shard = output.Shard

// ParseShard reads "i/n" with 0 <= i < n.
func ParseShard(v string) (*Shard, error) {
	a, b, ok := strings.Cut(v, "/")
	i, err1 := strconv.Atoi(a)
	n, err2 := strconv.Atoi(b)
	if !ok || err1 != nil || err2 != nil || n < 1 || i < 0 || i >= n {
		return nil, fmt.Errorf("--shard %q: expected i/n with 0 <= i < n (e.g. 0/4)", v)
	}
	return &Shard{Index: i, Count: n}, nil
}

// ShardCountEnv is the variable a Kubernetes Indexed Job sets to its `completions` so each pod
// knows n (Kubernetes itself only gives the pod its index, JOB_COMPLETION_INDEX).
const ShardCountEnv = "DDLSIM_SHARD_COUNT"

// ShardFromEnv derives the shard from a cluster scheduler's environment when --shard is not
// given, and says where it came from:
//
//   - Slurm job array: i = (SLURM_ARRAY_TASK_ID − SLURM_ARRAY_TASK_MIN) / SLURM_ARRAY_TASK_STEP,
//     n = SLURM_ARRAY_TASK_COUNT. The array must be a range (`--array=0-3`, `--array=1-8`,
//     `--array=0-6:2`), not an irregular list, so that i runs over 0..n-1.
//   - Kubernetes Indexed Job: i = JOB_COMPLETION_INDEX, n = DDLSIM_SHARD_COUNT.
//
// It returns nil (no sharding) when neither is present.
func ShardFromEnv(getenv func(string) string) (*Shard, string, error) {
	if id := getenv("SLURM_ARRAY_TASK_ID"); id != "" {
		n, err := envInt(getenv, "SLURM_ARRAY_TASK_COUNT", -1)
		if err != nil {
			return nil, "", err
		}
		tid, err := envInt(getenv, "SLURM_ARRAY_TASK_ID", 0)
		if err != nil {
			return nil, "", err
		}
		lo, err := envInt(getenv, "SLURM_ARRAY_TASK_MIN", 0)
		if err != nil {
			return nil, "", err
		}
		step, err := envInt(getenv, "SLURM_ARRAY_TASK_STEP", 1)
		if err != nil {
			return nil, "", err
		}
		if step < 1 || (tid-lo)%step != 0 {
			return nil, "", fmt.Errorf("slurm array task %d (min %d, step %d): not a regular range; submit with --array=0-N or pass --shard", tid, lo, step)
		}
		s := &Shard{Index: (tid - lo) / step, Count: n}
		if n < 1 || s.Index < 0 || s.Index >= n {
			return nil, "", fmt.Errorf("slurm array task %d of %d (min %d, step %d) gives shard %d/%d; submit with --array=0-N or pass --shard",
				tid, n, lo, step, s.Index, n)
		}
		return s, "slurm", nil
	}
	if idx := getenv("JOB_COMPLETION_INDEX"); idx != "" {
		i, err := envInt(getenv, "JOB_COMPLETION_INDEX", 0)
		if err != nil {
			return nil, "", err
		}
		n, err := envInt(getenv, ShardCountEnv, -1)
		if err != nil {
			return nil, "", fmt.Errorf("%v (set it to the Indexed Job's completions)", err)
		}
		if n < 1 || i < 0 || i >= n {
			return nil, "", fmt.Errorf("JOB_COMPLETION_INDEX=%d with %s=%d: need 0 <= index < count", i, ShardCountEnv, n)
		}
		return &Shard{Index: i, Count: n}, "kubernetes", nil
	}
	return nil, "", nil
}

func envInt(getenv func(string) string, name string, def int) (int, error) {
	v := getenv(name)
	if v == "" {
		if def < 0 {
			return 0, fmt.Errorf("%s is not set", name)
		}
		return def, nil
	}
	n, err := strconv.Atoi(v)
	if err != nil {
		return 0, fmt.Errorf("%s=%q: not an integer", name, v)
	}
	return n, nil
}
