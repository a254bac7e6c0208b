//go:build validation

package indexbuild

import (
	"fmt"
	"strings"
	"testing"
)

// The option study's full table is a study, not a check: it runs behind the validation tag
// (.ci/run: go test -tags validation -run StudyTable ./model/indexbuild/); TestStudyTrends
// keeps the study's checks in the unit suite.

func TestStudyTable(t *testing.T) {
	if testing.Short() {
		t.Skip("full-size grid")
	}
	var out strings.Builder
	w := func(format string, a ...any) { fmt.Fprintf(&out, format, a...) }
	mode := map[bool]string{false: "all at once", true: "one at a time"}

	w("\ninnodb_ddl_threads (innodb_ddl_buffer_size 2G), seconds:\n\n| rows | mode |")
	for _, th := range threadGrid {
		w(" %d |", th)
	}
	w("\n|---|---|%s\n", strings.Repeat("---|", len(threadGrid)))
	for _, rows := range studyRows {
		for _, one := range []bool{false, true} {
			w("| %dB | %s |", rows/1e9, mode[one])
			for _, th := range threadGrid {
				w(" %s |", cell(studyBuild(t, rows, func(s *Spec) { s.Threads, s.OneAtATime = th, one })))
			}
			w("\n")
		}
	}

	w("\ninnodb_ddl_buffer_size (innodb_ddl_threads 4), seconds:\n\n| rows | mode |")
	for _, bs := range bufferGrid {
		w(" %s |", strings.TrimSuffix(strings.ReplaceAll(fmtBytes(bs), ".0 ", ""), "iB"))
	}
	w("\n|---|---|%s\n", strings.Repeat("---|", len(bufferGrid)))
	for _, rows := range studyRows {
		for _, one := range []bool{false, true} {
			w("| %dB | %s |", rows/1e9, mode[one])
			for _, bs := range bufferGrid {
				w(" %s |", cell(studyBuild(t, rows, func(s *Spec) { s.BufferSize, s.OneAtATime = bs, one })))
			}
			w("\n")
		}
	}

	combine := []int64{64 * mib, 128 * mib, 256 * mib, 512 * mib, gib}
	w("\nMyRocks rocksdb_merge_combine_read_size (merge_buf_size 64M, all at once), seconds:\n\n| rows |")
	for _, c := range combine {
		w(" %s |", strings.TrimSuffix(strings.ReplaceAll(fmtBytes(c), ".0 ", ""), "iB"))
	}
	w("\n|---|%s\n", strings.Repeat("---|", len(combine)))
	for _, rows := range studyRows {
		w("| %dB |", rows/1e9)
		for _, c := range combine {
			w(" %s |", cell(studyBuild(t, rows, func(s *Spec) { s.Engine, s.MyRocks.MergeCombineReadSize = "myrocks", c })))
		}
		w("\n")
	}
	t.Log(out.String())
}
