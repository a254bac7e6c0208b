package sweep

import (
	"context"
	"errors"
	"fmt"
	"math"
	"runtime/debug"
	"strings"

	"github.com/ddlsim/ddlsim/model/config"
	"github.com/ddlsim/ddlsim/model/runner"
)

// RefusedError is a results directory that cannot take this sweep or compare: it holds
// finished points and --resume was not given, or it was written by another spec or shard.
// It is the user's to resolve (the command line exits 2), and it is raised before any run.
type RefusedError struct{ Msg string }

func (e *RefusedError) Error() string { return e.Msg }

func refused(format string, args ...any) error {
	return &RefusedError{Msg: fmt.Sprintf(format, args...)}
}

// DirError is a results directory that cannot be created or written. Like RefusedError it is
// found before any run.
type DirError struct {
	Dir string
	Err error
}

func (e *DirError) Error() string { return fmt.Sprintf("results directory %s: %v", e.Dir, e.Err) }
func (e *DirError) Unwrap() error { return e.Err }

// pointCount is how many points blocks enumerate to, saturating at math.MaxInt64.
func pointCount(blocks []Block) int64 {
	n := int64(1)
	for _, b := range blocks {
		var k int64
		switch b.Kind {
		case "grid":
			k = 1
			for _, v := range b.Values {
				k = satMul(k, int64(len(v)))
			}
		case "zip":
			if len(b.Values) > 0 {
				k = int64(len(b.Values[0]))
			}
		case "points":
			k = int64(len(b.Points))
		}
		n = satMul(n, k)
	}
	return n
}

func satMul(a, b int64) int64 {
	if a == 0 || b == 0 {
		return 0
	}
	if a > math.MaxInt64/b {
		return math.MaxInt64
	}
	return a * b
}

// checkSize judges a plan's size against the limits before it is enumerated.
func checkSize(points, seeds int64) error {
	if points > config.LimitSweepPoints.Max {
		return errors.New(config.LimitSweepPoints.Over(fmt.Sprintf("%s points", groupDigits(points))))
	}
	if runs := satMul(points, seeds); runs > config.LimitSweepRuns.Max {
		return errors.New(config.LimitSweepRuns.Over(fmt.Sprintf("%s points × %s seeds = %s runs", groupDigits(points), groupDigits(seeds), groupDigits(runs))))
	}
	return nil
}

func groupDigits(n int64) string {
	if n == math.MaxInt64 {
		return "more than 9,223,372,036,854,775,807"
	}
	s := fmt.Sprint(n)
	var b strings.Builder
	for i, r := range s {
		if i > 0 && (len(s)-i)%3 == 0 {
			b.WriteByte(',')
		}
		b.WriteRune(r)
	}
	return b.String()
}

// safeRun calls run, turning a panic into a *runner.PanicError: a worker goroutine that
// panicked would otherwise kill the process before anything could report it.
func safeRun(ctx context.Context, run RunFunc, pt Point, seed uint64) (out *Outcome, err error) {
	defer func() {
		if r := recover(); r != nil {
			pe := runner.NewPanicError(r, debug.Stack())
			pe.Seed = seed
			out, err = nil, pe
		}
	}()
	return run(ctx, pt, seed)
}
