package sweep

import (
	"fmt"
	"io"
	"os"
	"strings"
	"sync"
	"time"

	"golang.org/x/term"
)

// progress reports a sweep's runs on the Progress writer. On a terminal it draws
// "[#####-----] 12/40 runs 30% ETA 1m20s", redrawn in place at most every 100 ms. Anywhere
// else (a log, CI) it prints a plain line every 30 s of wall time, "sweep: 12/40 runs (30%),
// 1m30s elapsed, ETA 3m30s", so a long sweep is seen to be alive without filling the log
// with carriage returns; a sweep shorter than 30 s prints none.
type progress struct {
	mu      sync.Mutex
	w       io.Writer
	tty     bool
	total   int
	done    int
	start   time.Time
	last    time.Time
	now     func() time.Time
	every   time.Duration // non-terminal: between lines
	printed bool          // a terminal bar is on screen
}

// progressLineEvery is the wall time between progress lines on a non-terminal.
const progressLineEvery = 30 * time.Second

func newProgress(w io.Writer, total int) *progress {
	tty := false
	if f, ok := w.(*os.File); ok && term.IsTerminal(int(f.Fd())) {
		tty = true
	}
	return startProgress(w, tty, total, time.Now)
}

func startProgress(w io.Writer, tty bool, total int, now func() time.Time) *progress {
	p := &progress{w: w, tty: tty, total: total, now: now, start: now(), every: progressLineEvery}
	p.last = p.start
	p.draw(true)
	return p
}

func (p *progress) add(n int) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.done += n
	p.draw(p.done == p.total)
}

func (p *progress) eta(now time.Time) string {
	if p.done == 0 {
		return "?"
	}
	el := now.Sub(p.start)
	return (el * time.Duration(p.total-p.done) / time.Duration(p.done)).Round(time.Second).String()
}

func (p *progress) draw(force bool) {
	if p.w == nil || p.total == 0 {
		return
	}
	now := p.now()
	if !p.tty {
		if now.Sub(p.last) < p.every || p.done == p.total {
			return
		}
		p.last = now
		fmt.Fprintf(p.w, "sweep: %d/%d runs (%d%%), %s elapsed, ETA %s\n", p.done, p.total, 100*p.done/p.total,
			now.Sub(p.start).Round(time.Second), p.eta(now))
		return
	}
	if !force && now.Sub(p.last) < 100*time.Millisecond {
		return
	}
	p.last = now
	const width = 30
	fill := width * p.done / p.total
	fmt.Fprintf(p.w, "\r[%s%s] %d/%d runs %3d%% ETA %-8s", strings.Repeat("#", fill), strings.Repeat("-", width-fill),
		p.done, p.total, 100*p.done/p.total, p.eta(now))
	p.printed = true
}

// tick prints a non-terminal line when one is due although no run ended (a single long run).
func (p *progress) tick() {
	p.mu.Lock()
	defer p.mu.Unlock()
	if !p.tty {
		p.draw(false)
	}
}

func (p *progress) finish() {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.w != nil && p.tty && p.total > 0 {
		fmt.Fprintf(p.w, "\r%s\r", strings.Repeat(" ", 70))
	}
}
