package sweep

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sort"
	"sync"
	"time"

	"github.com/ddlsim/ddlsim/internal/output"
	"github.com/ddlsim/ddlsim/model/metrics"
)

// Outcome is what one run produced.
type Outcome struct {
	ConfigHash string
	Summary    metrics.Summary
	DDL        []metrics.DDLResult
	Series     *metrics.Series // kept only with Options.SaveSeries
}

// RunFunc runs one point with one seed. It must depend on nothing else (no shared mutable
// state, no wall clock), since runs execute concurrently and in any order, and it should
// return promptly with ctx's error once ctx is cancelled.
type RunFunc func(ctx context.Context, pt Point, seed uint64) (*Outcome, error)

// Options control Execute. None of them changes the results, only where and how fast they
// are produced.
type Options struct {
	Dir        string
	Jobs       int    // worker goroutines; <= 0 means runtime.NumCPU()
	Shard      *Shard // nil: all points
	Resume     bool   // keep completed points in Dir and run only the missing ones
	SaveSeries bool   // write each run's per-interval series to Dir/series/
	Progress   io.Writer
	Command    []string // recorded in the manifest
	Run        RunFunc
}

// Report says what Execute did.
type Report struct {
	Total   int // points in this shard
	Skipped int // already present (resume)
	Ran     int // points run now
	Runs    int // simulations run now
	Rows    []output.Row
}

// testRunDelay, set with -ldflags "-X github.com/ddlsim/ddlsim/internal/sweep.testRunDelay=50ms",
// slows every run down so that the kill-and-resume test can kill a sweep midway even when the
// runs themselves are instant. Empty in every normal build.
var testRunDelay string

// SetTestRunDelay sets testRunDelay from a test binary that runs the command itself
// (cmd/ddlsim's workflow tests re-execute their own binary as ddlsim instead of linking it).
func SetTestRunDelay(d string) { testRunDelay = d }

// Execute runs the plan's points (those of opt.Shard, minus the ones already in opt.Dir when
// resuming) on opt.Jobs workers (Each) and writes the results directory.
func Execute(ctx context.Context, plan *Plan, opt Options) (*Report, error) {
	if opt.Run == nil {
		return nil, errors.New("sweep: no RunFunc")
	}
	var delay time.Duration
	if testRunDelay != "" {
		delay, _ = time.ParseDuration(testRunDelay)
	}
	done, err := prepareDir(plan, opt)
	if err != nil {
		return nil, err
	}
	rep := &Report{}
	var todo []int // indexes into plan.Points
	for i, pt := range plan.Points {
		if !opt.Shard.Has(pt.ID) {
			continue
		}
		rep.Total++
		if _, ok := done[pt.ID]; ok && opt.Resume {
			rep.Skipped++
			continue
		}
		todo = append(todo, i)
	}
	if opt.SaveSeries && len(todo) > 0 {
		if err := os.MkdirAll(filepath.Join(opt.Dir, output.SeriesDir), 0o755); err != nil {
			return nil, err
		}
	}

	var (
		mu   sync.Mutex
		rows = map[int][]output.Row{}
		left = map[int]int{}
	)
	for _, pi := range todo {
		left[pi] = len(plan.Seeds)
	}
	bar := newProgress(opt.Progress, len(todo)*len(plan.Seeds))
	// A non-terminal progress line is due every 30 s even while no run ends (a few long runs).
	stopTick := make(chan struct{})
	go func() {
		t := time.NewTicker(time.Second)
		defer t.Stop()
		for {
			select {
			case <-t.C:
				bar.tick()
			case <-stopTick:
				return
			}
		}
	}()
	nseeds := len(plan.Seeds)
	err = Each(ctx, opt.Jobs, len(todo)*nseeds, func(ctx context.Context, k int) error {
		pi := todo[k/nseeds]
		pt, seed := plan.Points[pi], plan.Seeds[k%nseeds]
		start := time.Now()
		out, err := safeRun(ctx, opt.Run, pt, seed)
		if err != nil {
			if ctx.Err() != nil && errors.Is(err, context.Canceled) {
				return err
			}
			return fmt.Errorf("point %d %s seed %d: %w", pt.ID, paramString(pt.Params), seed, err)
		}
		if delay > 0 { // a test's stand-in for a long run: interrupted like one
			select {
			case <-time.After(delay):
			case <-ctx.Done():
				return context.Cause(ctx)
			}
		}
		if opt.SaveSeries && out.Series != nil {
			if err := output.WriteSeriesCSV(output.SeriesPath(opt.Dir, pt.ID, seed), out.Series); err != nil {
				return err
			}
		}
		row := output.Row{Point: pt.ID, Params: pt.Params, Seed: seed, Version: output.Version,
			ConfigHash: out.ConfigHash, Metrics: out.Summary, DDL: out.DDL,
			WallTimeS: time.Since(start).Seconds()}
		mu.Lock()
		rows[pi] = append(rows[pi], row)
		left[pi]--
		complete := left[pi] == 0
		prs := rows[pi]
		mu.Unlock()
		if complete {
			if err := output.WritePoint(opt.Dir, pt.ID, prs); err != nil {
				return err
			}
			mu.Lock()
			rep.Ran++
			mu.Unlock()
		}
		bar.add(1)
		return nil
	})
	close(stopTick)
	bar.finish()
	rep.Runs = bar.done
	if err != nil {
		// The runs of a point left unfinished are its partial outputs: their series go, so
		// the directory holds only finished points, and --resume runs the rest afresh.
		if opt.SaveSeries {
			for _, pi := range todo {
				if left[pi] == 0 {
					continue
				}
				for _, r := range rows[pi] {
					os.Remove(output.SeriesPath(opt.Dir, r.Point, r.Seed))
				}
			}
		}
		return rep, err
	}
	all, err := output.ReadPoints(opt.Dir)
	if err != nil {
		return rep, err
	}
	for id := range all {
		if !opt.Shard.Has(id) || id >= len(plan.Points) {
			return rep, fmt.Errorf("%s: point %d does not belong to shard %s of this spec", opt.Dir, id, opt.Shard)
		}
	}
	rep.Rows = output.Flatten(all)
	return rep, output.WriteCombined(opt.Dir, rep.Rows)
}

// prepareDir makes opt.Dir ready for plan before any run: created and test-written, temp
// files of a killed writer removed, refused when it holds another sweep's points (or finished
// points without --resume), and the manifest written. It returns the points already done.
func prepareDir(plan *Plan, opt Options) (map[int]string, error) {
	if err := os.MkdirAll(filepath.Join(opt.Dir, output.PointsDir), 0o755); err != nil {
		return nil, &DirError{opt.Dir, err}
	}
	if err := output.ProbeWritable(filepath.Join(opt.Dir, output.PointsDir)); err != nil {
		return nil, &DirError{opt.Dir, err}
	}
	output.RemoveTemps(opt.Dir)
	output.RemoveTemps(filepath.Join(opt.Dir, output.SeriesDir))
	done, err := output.DonePoints(opt.Dir)
	if err != nil {
		return nil, &DirError{opt.Dir, err}
	}
	man := &output.Manifest{
		SchemaVersion: output.SchemaVersion, Kind: plan.Kind, SpecHash: plan.SpecHash, Base: plan.Base,
		BaseHash: plan.BaseHash, Points: len(plan.Points), Seeds: plan.Seeds, Axes: AxisPaths(plan.Points),
		Shard: opt.Shard, Version: output.Version, Command: opt.Command, Spec: plan.SpecText,
	}
	old, err := output.ReadManifest(opt.Dir)
	var se *output.SchemaError
	if errors.As(err, &se) && !opt.Resume && len(done) == 0 {
		err = os.ErrNotExist // an older sweep's manifest with nothing finished: replaced
	}
	if err == nil {
		switch {
		case !opt.Resume && len(done) > 0:
			return nil, refused("%s already holds %d finished points: pass --resume to finish that sweep, or choose another --out", opt.Dir, len(done))
		case opt.Resume && old.SpecHash != plan.SpecHash:
			return nil, refused("--resume: %s was written by a different spec (hash %s, this one %s)", opt.Dir, old.SpecHash, plan.SpecHash)
		case opt.Resume && old.Shard.String() != opt.Shard.String():
			return nil, refused("--resume: %s holds shard %s, this is shard %s", opt.Dir, old.Shard, opt.Shard)
		}
	} else if errors.As(err, &se) {
		return nil, refused("%v", err)
	} else if !os.IsNotExist(err) {
		return nil, refused("%s: %v", opt.Dir, err)
	} else if len(done) > 0 {
		return nil, refused("%s holds point files but no %s", opt.Dir, output.ManifestFile)
	}
	if err := output.WriteManifest(opt.Dir, man); err != nil {
		return nil, &DirError{opt.Dir, err}
	}
	return done, nil
}

func paramString(ps output.Params) string {
	var b bytes.Buffer
	b.WriteByte('{')
	for i, p := range ps {
		if i > 0 {
			b.WriteString(", ")
		}
		fmt.Fprintf(&b, "%s=%s", p.Path, p.Value)
	}
	b.WriteByte('}')
	return b.String()
}

// Merge combines shard directories into out: it checks that every shard ran the same spec and
// that every point of the spec is present exactly once, then writes the same files an unsharded
// sweep writes (manifest, points/, results.jsonl, results.csv, and series/ when present).
func Merge(out string, dirs []string, command []string) (*Report, error) {
	if len(dirs) == 0 {
		return nil, errors.New("merge: no directories")
	}
	var base *output.Manifest
	var probs []string
	owner := map[int]string{}
	all := map[int][]output.Row{}
	for _, d := range dirs {
		m, err := output.ReadManifest(d)
		if err != nil {
			probs = append(probs, fmt.Sprintf("%s: not a sweep results directory: %v", d, err))
			continue
		}
		if base == nil {
			base = m
		} else if m.SpecHash != base.SpecHash || m.Points != base.Points {
			probs = append(probs, fmt.Sprintf("%s ran spec %s (%d points), %s ran spec %s (%d points)",
				d, m.SpecHash, m.Points, dirs[0], base.SpecHash, base.Points))
			continue
		}
		pts, err := output.ReadPoints(d)
		if err != nil {
			probs = append(probs, err.Error())
			continue
		}
		for id, rows := range pts {
			if prev, ok := owner[id]; ok {
				probs = append(probs, fmt.Sprintf("point %d is in both %s and %s", id, prev, d))
				continue
			}
			if id < 0 || id >= m.Points {
				probs = append(probs, fmt.Sprintf("%s: point %d is outside the spec's 0..%d", d, id, m.Points-1))
				continue
			}
			if len(rows) != len(m.Seeds) {
				probs = append(probs, fmt.Sprintf("%s: point %d has %d runs, the spec has %d seeds", d, id, len(rows), len(m.Seeds)))
			}
			owner[id] = d
			all[id] = rows
		}
	}
	if base != nil {
		var missing []int
		for id := 0; id < base.Points; id++ {
			if _, ok := owner[id]; !ok {
				missing = append(missing, id)
			}
		}
		if len(missing) > 0 {
			probs = append(probs, fmt.Sprintf("%d of %d points missing: %s", len(missing), base.Points, idList(missing)))
		}
	}
	if len(probs) > 0 {
		return nil, refused("merge: %d problems:\n  %s", len(probs), joinLines(probs))
	}
	if err := os.MkdirAll(filepath.Join(out, output.PointsDir), 0o755); err != nil {
		return nil, err
	}
	m := *base
	m.Shard = nil
	m.MergedFrom = dirs
	m.Command = command
	if err := output.WriteManifest(out, &m); err != nil {
		return nil, err
	}
	for id, rows := range all {
		if err := output.WritePoint(out, id, rows); err != nil {
			return nil, err
		}
	}
	for _, d := range dirs {
		ents, err := os.ReadDir(filepath.Join(d, output.SeriesDir))
		if err != nil {
			continue
		}
		os.MkdirAll(filepath.Join(out, output.SeriesDir), 0o755)
		for _, e := range ents {
			b, err := os.ReadFile(filepath.Join(d, output.SeriesDir, e.Name()))
			if err != nil {
				return nil, err
			}
			if err := output.WriteFileAtomic(filepath.Join(out, output.SeriesDir, e.Name()), b); err != nil {
				return nil, err
			}
		}
	}
	rep := &Report{Total: len(all), Rows: output.Flatten(all)}
	return rep, output.WriteCombined(out, rep.Rows)
}

func idList(ids []int) string {
	sort.Ints(ids)
	var b bytes.Buffer
	for i := 0; i < len(ids); {
		j := i
		for j+1 < len(ids) && ids[j+1] == ids[j]+1 {
			j++
		}
		if b.Len() > 0 {
			b.WriteString(",")
		}
		if j > i {
			fmt.Fprintf(&b, "%d-%d", ids[i], ids[j])
		} else {
			fmt.Fprintf(&b, "%d", ids[i])
		}
		i = j + 1
	}
	return b.String()
}

func joinLines(s []string) string {
	var b bytes.Buffer
	for i, l := range s {
		if i > 0 {
			b.WriteString("\n  ")
		}
		b.WriteString(l)
	}
	return b.String()
}
