package schema

import "fmt"

// PageID packs a tablespace id and a page number (the InnoDB page_id_t).
type PageID uint64

// MakePageID returns the id of page `page` of tablespace `space`.
func MakePageID(space, page uint32) PageID { return PageID(uint64(space)<<32 | uint64(page)) }

// Space is the tablespace id.
func (p PageID) Space() uint32 { return uint32(p >> 32) }

// Page is the page number within the tablespace.
func (p PageID) Page() uint32 { return uint32(p) }

func (p PageID) String() string { return fmt.Sprintf("%d:%d", p.Space(), p.Page()) }

// Record-format overheads (bytes), storage/innobase/rem/rem0rec.h and the clustered-index system
// columns DB_TRX_ID (6) and DB_ROLL_PTR (7).
const (
	recHeader     = 5
	sysColumns    = 13
	nodePtrChild  = 4
	pageHeader    = 120 // FIL header + page header + infimum/supremum + trailer
	bulkFillNum   = 15  // bulk load leaves 1/16 of each page free (BTR_PAGE_FILL / fill factor 100)
	bulkFillDen   = 16
	dirSlotPerRec = 2.0 / 6.0 // one 2-byte directory slot per ~6 records
)

// Index is the shape of one B-tree: how many leaves, how many levels, and where its pages sit
// in the tablespace. Page numbers are laid out level by level from Base: the root first, then
// each lower level, leaves last, so a leaf's page number is Base + offset of the leaf level +
// leaf ordinal.
type Index struct {
	Name        string
	Columns     []string // key columns of a secondary index (nil: not known, e.g. PRIMARY)
	Space       uint32
	Rows        int64
	LeafRecs    int     // records per leaf page
	NodeRecs    int     // node pointers per internal page
	Depth       int     // levels including the leaf level (1 = root is a leaf)
	LevelPages  []int64 // pages per level, [0] = root level (1 page), last = leaves
	levelBase   []uint32
	Base        uint32 // first page number of the index in its space
	Pages       int64  // total pages
	RecordBytes int    // leaf record size on disk
	KeyBytes    int    // node-pointer key size (without child page number and header)
	PageSize    int64
	// Searches counts B-tree searches of the index since the server started: the adaptive
	// hash index starts building a page's entries only after BTR_SEARCH_HASH_ANALYSIS +
	// BTR_SEARCH_BUILD_LIMIT searches of its index (btr_search_info_update). Run-time state,
	// not shape.
	Searches int64
}

// Contains reports whether page number p of the index's space belongs to the index.
func (ix *Index) Contains(p uint32) bool { return p >= ix.Base && int64(p) < int64(ix.Base)+ix.Pages }

// IsLeaf reports whether page number p (of this index) is on the leaf level.
func (ix *Index) IsLeaf(p uint32) bool { return p >= ix.levelBase[ix.Depth-1] && ix.Contains(p) }

// NewIndex shapes an index of `rows` records of recordBytes each (leaf format) and keyBytes of
// key (node pointer format) at the given page size, starting at page number base.
func NewIndex(name string, space uint32, base uint32, rows int64, recordBytes, keyBytes int, pageSize int64) *Index {
	usable := float64(pageSize-pageHeader) * bulkFillNum / bulkFillDen
	leafRecs := int(usable / (float64(recordBytes+recHeader) + dirSlotPerRec))
	nodeRecs := int(usable / (float64(keyBytes+nodePtrChild+recHeader) + dirSlotPerRec))
	if leafRecs < 2 {
		leafRecs = 2
	}
	if nodeRecs < 2 {
		nodeRecs = 2
	}
	ix := &Index{Name: name, Space: space, Base: base, Rows: rows, LeafRecs: leafRecs, NodeRecs: nodeRecs,
		RecordBytes: recordBytes + recHeader, KeyBytes: keyBytes, PageSize: pageSize}
	// Build level sizes bottom-up, then reverse so [0] is the root.
	n := (rows + int64(leafRecs) - 1) / int64(leafRecs)
	if n < 1 {
		n = 1
	}
	levels := []int64{n}
	for n > 1 {
		n = (n + int64(nodeRecs) - 1) / int64(nodeRecs)
		levels = append(levels, n)
	}
	for i, j := 0, len(levels)-1; i < j; i, j = i+1, j-1 {
		levels[i], levels[j] = levels[j], levels[i]
	}
	ix.LevelPages = levels
	ix.Depth = len(levels)
	ix.levelBase = make([]uint32, len(levels))
	off := int64(base)
	for i, c := range levels {
		ix.levelBase[i] = uint32(off)
		off += c
	}
	ix.Pages = off - int64(base)
	return ix
}

// LeafPages is the number of leaf pages.
func (ix *Index) LeafPages() int64 { return ix.LevelPages[ix.Depth-1] }

// Leaf returns the page id of leaf number `leaf` (0-based, clamped to the index).
func (ix *Index) Leaf(leaf int64) PageID {
	n := ix.LeafPages()
	if leaf >= n {
		leaf = n - 1
	}
	if leaf < 0 {
		leaf = 0
	}
	return MakePageID(ix.Space, ix.levelBase[ix.Depth-1]+uint32(leaf))
}

// Path appends to buf the pages a root-to-leaf descent to leaf number `leaf` touches.
func (ix *Index) Path(buf []PageID, leaf int64) []PageID {
	n := ix.LeafPages()
	if leaf >= n {
		leaf = n - 1
	}
	if leaf < 0 {
		leaf = 0
	}
	// The ancestor of leaf at level l is leaf / NodeRecs^(depth-1-l), clamped to the level:
	// computed as successive quotients (floor(floor(x/a)/b) = floor(x/(ab))) in 32 bits, as
	// a leaf ordinal fits a page number; a 32-bit divide is a fraction of a 64-bit one.
	n0 := len(buf)
	for range ix.Depth {
		buf = append(buf, 0)
	}
	q, d := uint32(leaf), uint32(ix.NodeRecs)
	for l := ix.Depth - 1; l >= 0; l-- {
		p := int64(q)
		if p >= ix.LevelPages[l] {
			p = ix.LevelPages[l] - 1
		}
		buf[n0+l] = MakePageID(ix.Space, ix.levelBase[l]+uint32(p))
		q /= d
	}
	return buf
}

// LeafOf returns the leaf holding the i-th record in key order (0 <= i < Rows).
func (ix *Index) LeafOf(i int64) int64 {
	if uint64(i) < 1<<32 { // the common case, with a 32-bit divide
		return int64(uint32(i) / uint32(ix.LeafRecs))
	}
	return i / int64(ix.LeafRecs)
}

// Table is one table: a tablespace holding the clustered index and its secondary indexes.
type Table struct {
	Name      string
	Group     string
	Kind      string // sysbench | tpcc | insert_benchmark (the data group's kind)
	Space     uint32
	Rows      int64
	RowBytes  int // clustered-index record payload (columns only)
	Primary   *Index
	Secondary []*Index
	// NextPage is the next never-used page number (inserts past the end allocate here).
	NextPage uint32
	// Dropped: DROP TABLE removed it (run-time state); statements on it fail.
	Dropped bool
	// ColumnSizes are the data group's declared column sizes by lower-case name (the
	// scenario's data[].columns); ColumnBytes uses them before the kind's.
	ColumnSizes map[string]int
}

// IndexOfPage returns the index page number p belongs to, or nil.
func (t *Table) IndexOfPage(p uint32) *Index {
	if t.Primary.Contains(p) {
		return t.Primary
	}
	for _, s := range t.Secondary {
		if s.Contains(p) {
			return s
		}
	}
	return nil
}

// Indexes lists the clustered index, then the secondary ones.
func (t *Table) Indexes() []*Index { return append([]*Index{t.Primary}, t.Secondary...) }

// Pages is the table's total index pages (its tablespace size without the file overhead).
func (t *Table) Pages() int64 {
	p := t.Primary.Pages
	for _, s := range t.Secondary {
		p += s.Pages
	}
	return p
}

// Sysbench column bytes: id INT (4), k INT (4), c CHAR(120), pad CHAR(60) in latin1/utf8mb4
// ascii content (sysbench fills them with digits), plus the 6+7 system columns.
const (
	SysbenchRowBytes = 4 + 4 + 120 + 60 + sysColumns
	SysbenchPKKey    = 4
	// A secondary record is the indexed column plus the primary key.
	SysbenchKEntry = 4 + 4
	SysbenchCEntry = 120 + 4
)

// firstIndexPage: pages 0-2 of a file-per-table tablespace are FSP header, ibuf bitmap and
// inode; the first index root is page 3.
const firstIndexPage = 3

// NewSysbenchTable shapes sbtestN with `rows` rows and nSecondary secondary indexes on k.
func NewSysbenchTable(name, group string, space uint32, rows int64, nSecondary int, pageSize int64) *Table {
	return NewSysbenchTableRow(name, group, space, rows, nSecondary, pageSize, 0)
}

// NewSysbenchTableRow is NewSysbenchTable with rowBytes of column data per row instead of
// sysbench's 188 (data[].row_size; 0 = sysbench's); the system columns are added.
func NewSysbenchTableRow(name, group string, space uint32, rows int64, nSecondary int, pageSize int64, rowBytes int) *Table {
	rb := SysbenchRowBytes
	if rowBytes > 0 {
		rb = rowBytes + sysColumns
	}
	t := &Table{Name: name, Group: group, Kind: KindSysbench, Space: space, Rows: rows, RowBytes: rb}
	t.Primary = NewIndex(name+".PRIMARY", space, firstIndexPage, rows, rb, SysbenchPKKey, pageSize)
	next := uint32(firstIndexPage + t.Primary.Pages)
	for i := 0; i < nSecondary; i++ {
		ix := NewIndex(fmt.Sprintf("%s.k_%d", name, i+1), space, next, rows, SysbenchKEntry, SysbenchKEntry, pageSize)
		ix.Columns = []string{"k"}
		t.Secondary = append(t.Secondary, ix)
		next += uint32(ix.Pages)
	}
	// Leave room: inserts past the end and page splits allocate from NextPage.
	t.NextPage = next
	return t
}

// RowsForSize returns how many sysbench rows make a tablespace of about size bytes.
func RowsForSize(size int64, pageSize int64, nSecondary int) int64 {
	return RowsForSizeOf(KindSysbench, size, pageSize, nSecondary, 0)
}

// RowsForSizeOf returns how many rows of a sysbench or insert-benchmark table with
// nSecondary secondary indexes and rowBytes of column data per row (0 = the kind's) make a
// tablespace of about size bytes.
func RowsForSizeOf(kind string, size int64, pageSize int64, nSecondary, rowBytes int) int64 {
	// Bytes per row = primary record share + secondary record shares, at the random-insert fill
	// of a loaded table (~15/16 after sysbench's sequential prepare).
	probe := NewSysbenchTableRow("probe", "", 0, 1_000_000, nSecondary, pageSize, rowBytes)
	if kind == KindInsertBenchmark {
		probe = NewInsertBenchmarkTableRow("probe", "", 0, 1_000_000, nSecondary, pageSize, rowBytes)
	}
	perRow := float64(probe.Pages()*pageSize) / 1e6
	return int64(float64(size) / perRow)
}

// NewTable shapes a generic table: a clustered index of rows × rowBytes (columns only; the
// system columns are added) keyed by pkBytes, and one secondary index per entry in secEntry
// (its column bytes; the primary key is appended).
func NewTable(name, group string, space uint32, rows int64, rowBytes, pkBytes int, secEntry []int, pageSize int64) *Table {
	var sec []IndexDef
	for i, e := range secEntry {
		sec = append(sec, IndexDef{Name: fmt.Sprintf("sec_%d", i+1), EntryBytes: e + pkBytes})
	}
	return newTable(name, group, space, rows, rowBytes, pkBytes, sec, pageSize)
}

// Page returns the page id of the p-th page of level l (0 = root level).
func (ix *Index) Page(l int, p int64) PageID {
	return MakePageID(ix.Space, ix.levelBase[l]+uint32(p))
}
