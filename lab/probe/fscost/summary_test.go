package main

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestSummarizeFit: rows on an exact line (wall = 100 + 2·size, cpu = 5 + 0.5·size) with an
// outlier repetition per size give that line back from the per-size medians, and the medians
// ignore the outlier.
func TestSummarizeFit(t *testing.T) {
	var b strings.Builder
	b.WriteString("# header\ntest\tsize_mib\trep\tcall\twall_us\tcpu_us\textents\n")
	for _, size := range []int{1, 16, 256, 1024} {
		wall, cpu := 100+2*float64(size), 5+0.5*float64(size)
		for rep := 0; rep < 3; rep++ {
			w := wall
			if rep == 2 {
				w *= 10 // an outlier the median must not see
			}
			fmt.Fprintf(&b, "unlink\t%d\t%d\tunlink\t%.1f\t%.1f\t3\n", size, rep, w, cpu)
		}
	}
	path := filepath.Join(t.TempDir(), "raw.tsv")
	if err := os.WriteFile(path, []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	var out strings.Builder
	if err := summarize(path, &out); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(out.String(), "unlink\t1024\tunlink\t3\t2148.0\t517.0\t") {
		t.Errorf("median row for 1024 MiB missing or wrong:\n%s", out.String())
	}
	if !strings.Contains(out.String(), "unlink\tunlink\t1-1024\t100.0\t2.000\t5.0\t0.500") {
		t.Errorf("fit is not the line the rows lie on:\n%s", out.String())
	}
}

// TestSummarizeBadRow: a malformed row is reported with its file and line.
func TestSummarizeBadRow(t *testing.T) {
	path := filepath.Join(t.TempDir(), "raw.tsv")
	if err := os.WriteFile(path, []byte("unlink\t1\t0\tunlink\tx\t1\t2\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	err := summarize(path, &strings.Builder{})
	if err == nil || !strings.Contains(err.Error(), path+":1:") {
		t.Errorf("want an error naming %s:1, got %v", path, err)
	}
}
