package main

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"math"
	"path/filepath"
	"sort"
	"strings"
	"sync"

	"github.com/ddlsim/ddlsim/internal/output"
	"github.com/ddlsim/ddlsim/internal/sweep"
	"github.com/ddlsim/ddlsim/internal/trust"
	"github.com/ddlsim/ddlsim/model/config"
)

// TrustFile is the trust block of a compare or sweep's results directory: the base
// scenario's (the points' overrides do not change which constants are measured; a point
// that changes the version or the DDL is not described by it).
const TrustFile = "trust.json"

// printTrust prints the base scenario's trust line (internal/trust) and returns its block.
func printTrust(w io.Writer, base *sweep.Base) *trust.Trust {
	sc, err := config.LoadWith(base.Path, base.Sets, nil)
	if err != nil {
		return nil // validated already by LoadBase; nothing to say if it no longer loads
	}
	tr := trust.Of(sc)
	fmt.Fprintln(w, tr.Line())
	return tr
}

// writeTrust writes the block into the results directory, beside manifest.json.
func writeTrust(dir string, tr *trust.Trust) error {
	if tr == nil {
		return nil
	}
	b, err := json.MarshalIndent(tr, "", "  ")
	if err != nil {
		return err
	}
	return output.WriteFileAtomic(filepath.Join(dir, TrustFile), append(b, '\n'))
}

// observedRuns compares each run of a compare or sweep with the real server's rate
// (internal/trust.CompareObserved, the scenario's observed: block): the runs it ran now,
// not those a --resume found done.
type observedRuns struct {
	base *sweep.Base
	mu   sync.Mutex
	runs []trust.ObservedRun
	scs  map[string]*config.Scenario // a point's scenario, for its warning's file and line
}

// wrap returns run, comparing each outcome with the point's observed rate.
func (o *observedRuns) wrap(run sweep.RunFunc) sweep.RunFunc {
	return func(ctx context.Context, pt sweep.Point, seed uint64) (*sweep.Outcome, error) {
		out, err := run(ctx, pt, seed)
		if err != nil || out == nil || out.Series == nil {
			return out, err
		}
		sc, lerr := o.base.Scenario(pt, seed)
		if lerr != nil {
			return out, err
		}
		if c := trust.CompareObserved(sc, out.Series, out.DDL); c != nil {
			var ps []string
			for _, p := range pt.Params {
				ps = append(ps, p.Path+"="+p.Value)
			}
			r := trust.ObservedRun{Point: pt.ID, Params: strings.Join(ps, " "), Seed: seed, Observed: *c}
			o.mu.Lock()
			if o.scs == nil {
				o.scs = map[string]*config.Scenario{}
			}
			o.scs[r.Params] = sc
			o.runs = append(o.runs, r)
			o.mu.Unlock()
		}
		return out, err
	}
}

// report warns on w about the runs outside the band (the one farthest off at its scenario's
// observed: line, and how many there were), and puts the comparisons in the trust block.
func (o *observedRuns) report(w io.Writer, tr *trust.Trust) {
	if len(o.runs) == 0 {
		return
	}
	sort.Slice(o.runs, func(i, j int) bool {
		a, b := o.runs[i], o.runs[j]
		return a.Point < b.Point || a.Point == b.Point && a.Seed < b.Seed
	})
	if tr != nil {
		tr.ObservedRuns = o.runs
	}
	worst, off := -1, 0
	for i, r := range o.runs {
		if r.WithinBand {
			continue
		}
		off++
		if worst < 0 || math.Abs(math.Log(r.Ratio)) > math.Abs(math.Log(o.runs[worst].Ratio)) {
			worst = i
		}
	}
	if worst < 0 {
		return
	}
	r := o.runs[worst]
	fmt.Fprintln(w, r.Observed.Warning(o.scs[r.Params]))
	what := "the base scenario"
	if r.Params != "" {
		what = r.Params
	}
	fmt.Fprintf(w, "warning: %d of %d runs are outside %g× of the observed statements/s; the warning above is the farthest off, %s, seed %d (every run is in %s, observed_runs)\n",
		off, len(o.runs), trust.ObservedBand, what, r.Seed, TrustFile)
}
