package sweep

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"runtime"
	"sort"
	"strings"
	"sync"
	"time"

	"github.com/ddlsim/ddlsim/model/metrics"
)

var nan = math.NaN()

// Outcome is what one run produced.
type Outcome struct {
	ConfigHash string
	Summary    metrics.Summary
	DDL        []metrics.DDLResult
	Series     *metrics.Series // kept only with Options.SaveSeries
}

// RunFunc runs one point with one seed. It must depend on nothing else (no shared mutable
// state, no wall clock), since runs execute concurrently and in any order.
type RunFunc func(pt Point, seed uint64) (*Outcome, error)

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
	Rows    []Row
}

// testRunDelay, set with -ldflags "-X github.com/ddlsim/ddlsim/internal/sweep.testRunDelay=50ms",
// slows every run down so that the kill-and-resume test can kill a sweep midway even when the
// runs themselves are instant. Empty in every normal build.
var testRunDelay string

// SetTestRunDelay sets testRunDelay from a test binary that runs the command itself
// (cmd/ddlsim's workflow tests re-execute their own binary as ddlsim instead of linking it).
func SetTestRunDelay(d string) { testRunDelay = d }

// Execute runs the plan's points (those of opt.Shard, minus the ones already in opt.Dir when
// resuming) on opt.Jobs workers and writes the results directory.
func Execute(ctx context.Context, plan *Plan, opt Options) (*Report, error) {
	if opt.Run == nil {
		return nil, errors.New("sweep: no RunFunc")
	}
	jobs := opt.Jobs
	if jobs <= 0 {
		jobs = runtime.NumCPU()
	}
	var delay time.Duration
	if testRunDelay != "" {
		delay, _ = time.ParseDuration(testRunDelay)
	}
	if err := os.MkdirAll(filepath.Join(opt.Dir, PointsDir), 0o755); err != nil {
		return nil, &DirError{opt.Dir, err}
	}
	if err := probeWritable(filepath.Join(opt.Dir, PointsDir)); err != nil {
		return nil, &DirError{opt.Dir, err}
	}
	removeTemps(opt.Dir)
	removeTemps(filepath.Join(opt.Dir, SeriesDir))
	done, err := donePoints(opt.Dir)
	if err != nil {
		return nil, &DirError{opt.Dir, err}
	}
	man := &Manifest{
		SchemaVersion: SchemaVersion, Kind: plan.Kind, SpecHash: plan.SpecHash, Base: plan.Base,
		BaseHash: plan.BaseHash, Points: len(plan.Points), Seeds: plan.Seeds, Axes: AxisPaths(plan.Points),
		Shard: opt.Shard, Version: Version, Command: opt.Command, Spec: plan.SpecText,
	}
	if old, err := ReadManifest(opt.Dir); err == nil {
		switch {
		case !opt.Resume && len(done) > 0:
			return nil, refused("%s already holds %d finished points: pass --resume to finish that sweep, or choose another --out", opt.Dir, len(done))
		case opt.Resume && old.SpecHash != plan.SpecHash:
			return nil, refused("--resume: %s was written by a different spec (hash %s, this one %s)", opt.Dir, old.SpecHash, plan.SpecHash)
		case opt.Resume && old.Shard.String() != opt.Shard.String():
			return nil, refused("--resume: %s holds shard %s, this is shard %s", opt.Dir, old.Shard, opt.Shard)
		}
	} else if !os.IsNotExist(err) {
		return nil, refused("%s: %v", opt.Dir, err)
	} else if len(done) > 0 {
		return nil, refused("%s holds point files but no %s", opt.Dir, ManifestFile)
	}
	if err := writeManifest(opt.Dir, man); err != nil {
		return nil, &DirError{opt.Dir, err}
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
		if err := os.MkdirAll(filepath.Join(opt.Dir, SeriesDir), 0o755); err != nil {
			return nil, err
		}
	}

	type unit struct{ pi, si int }
	units := make(chan unit)
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	var (
		mu       sync.Mutex
		firstErr error
		rows     = map[int][]Row{}
		left     = map[int]int{}
	)
	for _, pi := range todo {
		left[pi] = len(plan.Seeds)
	}
	fail := func(err error) {
		mu.Lock()
		if firstErr == nil {
			firstErr = err
		}
		mu.Unlock()
		cancel()
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
	var wg sync.WaitGroup
	for w := 0; w < jobs; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for u := range units {
				if ctx.Err() != nil {
					continue
				}
				pt, seed := plan.Points[u.pi], plan.Seeds[u.si]
				start := time.Now()
				out, err := safeRun(opt.Run, pt, seed)
				if err != nil {
					fail(fmt.Errorf("point %d %s seed %d: %w", pt.ID, paramString(pt.Params), seed, err))
					continue
				}
				if delay > 0 {
					time.Sleep(delay)
				}
				if opt.SaveSeries && out.Series != nil {
					if err := WriteSeriesCSV(SeriesFile(opt.Dir, pt.ID, seed), out.Series); err != nil {
						fail(err)
						continue
					}
				}
				row := Row{Point: pt.ID, Params: pt.Params, Seed: seed, Version: Version,
					ConfigHash: out.ConfigHash, Metrics: out.Summary, DDL: out.DDL,
					WallTimeS: time.Since(start).Seconds()}
				mu.Lock()
				rows[u.pi] = append(rows[u.pi], row)
				left[u.pi]--
				complete := left[u.pi] == 0
				prs := rows[u.pi]
				mu.Unlock()
				if complete {
					if err := writePoint(opt.Dir, pt.ID, prs); err != nil {
						fail(err)
						continue
					}
					mu.Lock()
					rep.Ran++
					mu.Unlock()
				}
				bar.add(1)
			}
		}()
	}
feed:
	for _, pi := range todo {
		for si := range plan.Seeds {
			select {
			case units <- unit{pi, si}:
			case <-ctx.Done():
				break feed
			}
		}
	}
	close(units)
	wg.Wait()
	close(stopTick)
	bar.finish()
	rep.Runs = bar.done
	if firstErr != nil {
		return rep, firstErr
	}
	if err := ctx.Err(); err != nil {
		return rep, err
	}
	all, err := ReadPoints(opt.Dir)
	if err != nil {
		return rep, err
	}
	for id := range all {
		if !opt.Shard.Has(id) || id >= len(plan.Points) {
			return rep, fmt.Errorf("%s: point %d does not belong to shard %s of this spec", opt.Dir, id, opt.Shard)
		}
	}
	rep.Rows = flatten(all)
	return rep, WriteCombined(opt.Dir, rep.Rows)
}

// removeTemps removes the temporary files a killed writer left in dir (WriteFileAtomic's
// .tmp-* siblings; donePoints does the same for points/).
func removeTemps(dir string) {
	ents, _ := os.ReadDir(dir)
	for _, e := range ents {
		if !e.IsDir() && strings.HasPrefix(e.Name(), ".tmp-") {
			os.Remove(filepath.Join(dir, e.Name()))
		}
	}
}

// probeWritable creates and removes a file in dir, so a directory that cannot take results is
// reported before the first run rather than after it.
func probeWritable(dir string) error {
	f, err := os.CreateTemp(dir, ".tmp-probe-*")
	if err != nil {
		return err
	}
	name := f.Name()
	f.Close()
	return os.Remove(name)
}

func writePoint(dir string, id int, rows []Row) error {
	rows = append([]Row(nil), rows...)
	SortRows(rows)
	var b bytes.Buffer
	if err := WriteJSONL(&b, rows); err != nil {
		return err
	}
	return WriteFileAtomic(pointFile(dir, id), b.Bytes())
}

func paramString(ps []Param) string {
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
	var base *Manifest
	var probs []string
	owner := map[int]string{}
	all := map[int][]Row{}
	for _, d := range dirs {
		m, err := ReadManifest(d)
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
		pts, err := ReadPoints(d)
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
		return nil, fmt.Errorf("merge: %d problems:\n  %s", len(probs), joinLines(probs))
	}
	if err := os.MkdirAll(filepath.Join(out, PointsDir), 0o755); err != nil {
		return nil, err
	}
	m := *base
	m.Shard = nil
	m.MergedFrom = dirs
	m.Command = command
	if err := writeManifest(out, &m); err != nil {
		return nil, err
	}
	for id, rows := range all {
		if err := writePoint(out, id, rows); err != nil {
			return nil, err
		}
	}
	for _, d := range dirs {
		ents, err := os.ReadDir(filepath.Join(d, SeriesDir))
		if err != nil {
			continue
		}
		os.MkdirAll(filepath.Join(out, SeriesDir), 0o755)
		for _, e := range ents {
			b, err := os.ReadFile(filepath.Join(d, SeriesDir, e.Name()))
			if err != nil {
				return nil, err
			}
			if err := WriteFileAtomic(filepath.Join(out, SeriesDir, e.Name()), b); err != nil {
				return nil, err
			}
		}
	}
	rep := &Report{Total: len(all), Rows: flatten(all)}
	return rep, WriteCombined(out, rep.Rows)
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
