package main

import (
	"errors"
	"flag"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/ddlsim/ddlsim/internal/calibrate"
	"github.com/ddlsim/ddlsim/internal/mycnf"
	"github.com/ddlsim/ddlsim/internal/output"
	"github.com/ddlsim/ddlsim/model/config"
)

var calibrateCmd = &command{
	name:     "calibrate",
	args:     "SCENARIO.yaml --status BEFORE AFTER --server-cpu SECONDS",
	synopsis: "fit a profile's CPU costs to a real server from two SHOW GLOBAL STATUS snapshots and mysqld's CPU seconds",
	usage: `Fits the scenario's hardware profile to a real server observed without DDL (docs/calibrate.md).

  SCENARIO.yaml      the server: its hardware profile, mysql: settings, data and load (an
                     imported scenario, ddlsim import, is a start); its schedule is left out
  --status B A       mysql -B -N -e 'SHOW GLOBAL STATUS' taken twice under the server's normal
                     load, some tens of seconds apart (the interval is the Uptime difference);
                     B is the flag's value, A the argument after it
  --server-cpu S     the mysqld process's user+system CPU seconds over the same interval

The measured statements/s (Questions), server CPU per statement and page reads per statement
(Innodb_buffer_pool_reads) are compared with the simulated no-DDL baseline; the profile's
foreground CPU costs (page_hit, row, statement, commit) are scaled by one factor so the CPU
per statement matches, and the baseline is simulated again with them: measured and
simulated side by side. With --out the calibrated profile is written (base: the scenario's
profile, the fitted costs, provenance saying on what and when, with the residuals); it is
not replaced without --force. Exit 2 when an input is wrong (truncated snapshot, snapshots in
the wrong order or at the same Uptime, counters that went backwards).`,
	setup: func(fset *flag.FlagSet) func(e *env, args []string) error {
		var before, cpu, out, name, duration string
		var force bool
		var sets []string
		fset.StringVar(&before, "status", "", "the `BEFORE` snapshot (then AFTER as an argument)")
		fset.StringVar(&cpu, "server-cpu", "", "mysqld's user+system CPU `SECONDS` over the interval")
		fset.StringVar(&out, "out", "", "write the calibrated profile to `PROFILE.yaml`")
		fset.StringVar(&name, "name", "", "the profile's `NAME` (default: the scenario's profile's, -calibrated)")
		fset.StringVar(&duration, "duration", "", "simulate each baseline for `D` (default: the scenario's duration, or 60s when it runs until its DDL is done)")
		fset.BoolVar(&force, "force", false, "replace an existing --out file")
		fset.Var(setList{&sets}, "set", "override a scenario field, `path=value` (repeatable)")
		return func(e *env, args []string) error {
			if len(args) != 2 || before == "" {
				return usagef("calibrate takes SCENARIO.yaml --status BEFORE AFTER --server-cpu SECONDS (got %d arguments besides the flags); run 'ddlsim help calibrate'", len(args))
			}
			if cpu == "" {
				return usagef("calibrate needs --server-cpu SECONDS: the mysqld process's CPU over the interval")
			}
			var dur config.Duration
			if duration != "" {
				d, err := config.ParseDuration(duration)
				if err != nil || d <= 0 {
					return usagef("--duration %q: expected a duration > 0 such as 60s", duration)
				}
				dur = d
			}
			scenPath, afterPath := args[0], args[1]
			sc, err := config.LoadWith(scenPath, sets, nil)
			if err != nil {
				return &inputError{err}
			}
			if dur == 0 && sc.Until.Event != "" {
				dur = 60 * config.Second
			}
			var snaps [2][]mycnf.Setting
			for i, p := range []string{before, afterPath} {
				if snaps[i], err = readTable(p); err != nil {
					return err
				}
			}
			obs, err := calibrate.Observe(snaps[0], snaps[1], filepath.Base(before), filepath.Base(afterPath), cpu)
			if err != nil {
				return &inputError{err}
			}
			if out != "" && !force {
				if _, err := os.Stat(out); err == nil {
					return usagef("%s exists: give --force to replace it", out)
				} else if !errors.Is(err, fs.ErrNotExist) {
					return &inputError{err}
				}
			}
			w := e.stdout
			m := obs.Measured()
			fmt.Fprintf(w, "calibrate %s: %s -> %s: %.0f s, %.0f statements (%.1f/s), mysqld CPU %.6g s, %.0f page reads\n",
				scenPath, obs.Before, obs.After, obs.Interval, obs.Statements, m.StatementsPerS, obs.ServerCPU, obs.PageReads)
			fit, err := calibrate.Run(sc, obs, dur)
			if err != nil {
				return &inputError{err}
			}
			b, f := fit.Base, fit.Fitted
			fmt.Fprintf(w, "fit: %s's page_hit, row, statement, commit x %.4f = %s, %s, %s, %s (were %s, %s, %s, %s)\n\n",
				fit.Profile, fit.Scale, f.PageHit, f.Row, f.Statement, f.Commit, b.PageHit, b.Row, b.Statement, b.Commit)
			s := fit.Simulated
			fmt.Fprintf(w, "%-34s %14s %14s %10s\n", "no-DDL baseline", "measured", "simulated", "sim/meas")
			row := func(what string, a, b float64, unit string, fitted bool) {
				tag := "(check)"
				if fitted {
					tag = "(fitted)"
				}
				r := "-"
				if a != 0 {
					r = fmt.Sprintf("%.3f", b/a)
				}
				fmt.Fprintf(w, "%-34s %14s %14s %10s %s\n", what, num(a)+unit, num(b)+unit, r, tag)
			}
			row("statements/s", m.StatementsPerS, s.StatementsPerS, "", false)
			row("server CPU per statement", 1e6*m.CPUPerStatement, 1e6*s.CPUPerStatement, "us", true)
			row("page reads per statement", m.ReadsPerStatment, s.ReadsPerStatment, "", false)
			if out == "" {
				fmt.Fprintf(w, "\nno --out: the profile is not written\n")
				return nil
			}
			if name == "" {
				name = fit.Profile + "-calibrated"
			}
			base := profileBase(sc, out)
			text := fit.ProfileYAML(name, base, scenPath, time.Now().UTC().Format("2006-01-02"), obs)
			if err := os.MkdirAll(filepath.Dir(out), 0o755); err != nil {
				return &inputError{err}
			}
			if err := output.WriteFileAtomic(out, []byte(text)); err != nil {
				return &inputError{err}
			}
			if _, err := config.LoadHardware(out); err != nil {
				return fmt.Errorf("the written profile %s does not load (a bug): %v", out, err)
			}
			fmt.Fprintf(w, "\nwrote %s (base: %s): use it as the scenario's hardware: and check it with ddlsim run\n", out, base)
			return nil
		}
	},
}

// profileBase is how the calibrated profile names the scenario's: a shipped profile by its
// name, a file by its path relative to the written profile.
func profileBase(sc *config.Scenario, out string) string {
	p := sc.Origins["hardware"].File
	if rest, ok := strings.CutPrefix(p, config.ShippedPrefix+"profiles/"); ok {
		return strings.TrimSuffix(rest, ".yaml")
	}
	abs, err1 := filepath.Abs(p)
	dir, err2 := filepath.Abs(filepath.Dir(out))
	if err1 == nil && err2 == nil {
		if rel, err := filepath.Rel(dir, abs); err == nil {
			return rel
		}
	}
	return p
}

func num(x float64) string {
	switch {
	case x == 0:
		return "0"
	case x >= 100:
		return fmt.Sprintf("%.0f", x)
	case x >= 1:
		return fmt.Sprintf("%.2f", x)
	}
	return fmt.Sprintf("%.3g", x)
}
