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

// progress draws "[#####-----] 12/40 runs 30% ETA 1m20s" on a terminal, redrawn in place at
// most every 100 ms. On anything but a terminal it stays silent, so logs and CI output are not
// filled with carriage returns.
type progress struct {
	mu    sync.Mutex
	w     io.Writer
	total int
	done  int
	start time.Time
	last  time.Time
}

func newProgress(w io.Writer, total int) *progress {
	p := &progress{total: total, start: time.Now()}
	if f, ok := w.(*os.File); ok && term.IsTerminal(int(f.Fd())) {
		p.w = w
	}
	p.draw(true)
	return p
}

func (p *progress) add(n int) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.done += n
	p.draw(p.done == p.total)
}

func (p *progress) draw(force bool) {
	if p.w == nil || p.total == 0 {
		return
	}
	now := time.Now()
	if !force && now.Sub(p.last) < 100*time.Millisecond {
		return
	}
	p.last = now
	const width = 30
	fill := width * p.done / p.total
	eta := "?"
	if p.done > 0 {
		el := now.Sub(p.start)
		eta = (el * time.Duration(p.total-p.done) / time.Duration(p.done)).Round(time.Second).String()
	}
	fmt.Fprintf(p.w, "\r[%s%s] %d/%d runs %3d%% ETA %-8s", strings.Repeat("#", fill), strings.Repeat("-", width-fill),
		p.done, p.total, 100*p.done/p.total, eta)
}

func (p *progress) finish() {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.w != nil && p.total > 0 {
		fmt.Fprintf(p.w, "\r%s\r", strings.Repeat(" ", 70))
	}
}
