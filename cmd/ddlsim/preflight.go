package main

import (
	"bufio"
	"bytes"
	"flag"
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"

	"github.com/ddlsim/ddlsim/model/config"
	"github.com/ddlsim/ddlsim/model/runner"
)

// Before anything runs, every command that simulates (run, compare, sweep) and check go
// through the same steps: load and validate (config), print the warnings, estimate the run
// (runner.EstimateRun) and refuse it — exit 2 — when the runs that would be in memory at
// once need more than the machine has, or than --max-memory allows.

// memFlag is --max-memory: a size in the scenario's own units; 0 = the machine's memory.
type memFlag struct{ v *int64 }

func (m memFlag) String() string {
	if m.v == nil || *m.v == 0 {
		return ""
	}
	return config.Size(*m.v).String()
}

func (m memFlag) Set(s string) error {
	n, err := config.ParseSize(s)
	if err != nil || n <= 0 {
		return usagef("--max-memory wants a size such as 8GiB, got %q", s)
	}
	*m.v = int64(n)
	return nil
}

func addMaxMemory(fs *flag.FlagSet, v *int64) {
	fs.Var(memFlag{v}, "max-memory", "refuse runs whose memory estimate exceeds `SIZE` (default: the machine's memory)")
}

// machineMemory is the memory this process may use: the smaller of the machine's RAM
// (/proc/meminfo MemTotal) and the cgroup limit (v2 memory.max, v1 memory.limit_in_bytes).
// 0 when unknown.
func machineMemory() int64 {
	var total int64
	if b, err := os.ReadFile("/proc/meminfo"); err == nil {
		sc := bufio.NewScanner(bytes.NewReader(b))
		for sc.Scan() {
			if f := strings.Fields(sc.Text()); len(f) >= 2 && f[0] == "MemTotal:" {
				kb, _ := strconv.ParseInt(f[1], 10, 64)
				total = kb << 10
			}
		}
	}
	for _, p := range []string{"/sys/fs/cgroup/memory.max", "/sys/fs/cgroup/memory/memory.limit_in_bytes"} {
		b, err := os.ReadFile(p)
		if err != nil {
			continue
		}
		if n, err := strconv.ParseInt(strings.TrimSpace(string(b)), 10, 64); err == nil && n > 0 && (total == 0 || n < total) {
			total = n
		}
	}
	return total
}

// admit refuses a plan whose concurrent runs would not fit in memory: est is one run's
// estimate (the largest point's, for a sweep), concurrent the runs in memory at once.
func admit(est runner.Estimate, concurrent int, maxMemory int64) error {
	limit, what := maxMemory, "--max-memory"
	if limit == 0 {
		limit, what = machineMemory(), "this machine's memory"
	}
	if limit <= 0 {
		return nil
	}
	need := float64(est.Memory) * float64(max(concurrent, 1))
	if need <= float64(limit) {
		if est.InFlight > config.LimitEventsInFlight.Max {
			return usagef("%s", config.LimitEventsInFlight.Over(fmt.Sprintf("about %d events pending at once", est.InFlight)))
		}
		return nil
	}
	runs := ""
	if concurrent > 1 {
		runs = fmt.Sprintf(" × %d runs at once (--jobs)", concurrent)
	}
	var parts []string
	for _, p := range est.Parts {
		if p.Bytes >= est.Memory/20 {
			parts = append(parts, fmt.Sprintf("%s %s", p.Name, config.FormatBytes(float64(p.Bytes))))
		}
	}
	return usagef("refusing to run: the memory estimate is %s per run%s, more than %s (%s); largest parts: %s. Lower the buffer pool, threads or tables, lower --jobs, or raise --max-memory (docs/limits.md)",
		config.FormatBytes(float64(est.Memory)), runs, what, config.FormatBytes(float64(limit)), strings.Join(parts, ", "))
}

// printWarnings writes each warning once, to w.
func printWarnings(w io.Writer, ws []*config.FieldError) {
	seen := map[string]bool{}
	for _, x := range ws {
		line := x.Warning()
		if !seen[line] {
			seen[line] = true
			fmt.Fprintln(w, line)
		}
	}
}
