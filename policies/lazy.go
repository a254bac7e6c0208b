package policies

import (
	"github.com/ddlsim/ddlsim/model/config"
	"github.com/ddlsim/ddlsim/model/server"
	"github.com/ddlsim/ddlsim/model/version"
)

// Lazy is MySQL 8.0.23+'s lazy drop (WL#14100; docs/innodb-source.md §4): DROP, TRUNCATE,
// DISCARD and temp/undo truncation do not scan the pool — the DDL marks the space deleted or
// bumps its version, and stale pages are freed when met (lookup, the LRU eviction scan, LRU
// and flush batches). What still scans still scans: DROP TABLE's AHI cleanup
// (btr_drop_ahi_for_table), and every FLUSH_WRITE (export, encryption, observer flushes),
// which in 8.0.23–8.0.25 still restarts from the tail. Its parameters are fullscan's.
//
// DropPages (Fullscan's) runs the version's lazy rows: MySQL 8.0.23+ btr_drop_ahi_for_table
// for DROP and TRUNCATE, then nothing; MariaDB 10.6+ nothing for DROP/TRUNCATE, its AHI
// dropped as pages are evicted, and buf_flush_remove_pages for DISCARD; on older versions the
// what-if of 8.0.23's.
type Lazy struct {
	Fullscan
}

func newLazy(srv *server.Server, params config.Params) (server.Policy, error) {
	f, err := fullscanOf(srv, params, "lazy", version.PolicyLazy)
	return &Lazy{Fullscan: f}, err
}

// FreesStale: stale pages are freed where the pool meets them.
func (l *Lazy) FreesStale() bool { return true }

// Stale is buf_page_t::is_stale: the page's space was deleted or its version moved on.
func (l *Lazy) Stale(sp *server.Space, pageVersion uint16) bool {
	return sp.Deleted || uint16(sp.Version) != pageVersion
}
