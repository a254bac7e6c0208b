package server

import (
	"testing"

	"github.com/ddlsim/ddlsim/model/config"
)

// TestFilesortRowFallsBackToSortRow: a statement's filesort is charged costs.filesort_row,
// and costs.sort_row when a profile leaves it 0 (the profiles before issue 23), so moving the
// index build's sort_row does not move client statements of a profile that gives both.
func TestFilesortRowFallsBackToSortRow(t *testing.T) {
	c := config.Costs{SortRow: 11}
	if got := costsFrom(c).FilesortRow; got != 11 {
		t.Errorf("filesort_row 0: %v, want sort_row (11)", got)
	}
	c.FilesortRow = 9
	if got := costsFrom(c); got.FilesortRow != 9 || got.SortRow != 11 {
		t.Errorf("filesort_row 9, sort_row 11: got %v / %v", got.FilesortRow, got.SortRow)
	}
}
