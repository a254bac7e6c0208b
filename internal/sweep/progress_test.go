package sweep

import (
	"bytes"
	"strings"
	"testing"
	"time"
)

// A terminal gets the bar redrawn in place; anything else a plain line every 30 s of wall
// time, none before and none at the end.
func TestProgressLines(t *testing.T) {
	var b bytes.Buffer
	now := time.Unix(0, 0)
	clock := func() time.Time { return now }
	p := startProgress(&b, false, 4, clock)
	now = now.Add(10 * time.Second)
	p.add(1)
	p.tick()
	if b.Len() != 0 {
		t.Fatalf("line before 30 s: %q", b.String())
	}
	now = now.Add(20 * time.Second)
	p.tick()
	now = now.Add(5 * time.Second)
	p.add(1)
	now = now.Add(30 * time.Second)
	p.add(1)
	now = now.Add(40 * time.Second)
	p.add(1) // the last: no line
	p.finish()
	want := "sweep: 1/4 runs (25%), 30s elapsed, ETA 1m30s\nsweep: 3/4 runs (75%), 1m5s elapsed, ETA 22s\n"
	if b.String() != want {
		t.Errorf("non-terminal:\n%q\nwant\n%q", b.String(), want)
	}

	b.Reset()
	p = startProgress(&b, true, 2, clock)
	p.add(1)
	p.add(1)
	p.finish()
	if !strings.HasPrefix(b.String(), "\r[") || !strings.Contains(b.String(), "2/2 runs 100%") || strings.Contains(b.String(), "\n") {
		t.Errorf("terminal: %q", b.String())
	}
}
