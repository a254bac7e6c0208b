package policies

import (
	"github.com/ddlsim/ddlsim/model/config"
	"github.com/ddlsim/ddlsim/model/server"
	"github.com/ddlsim/ddlsim/model/version"
)

// PerconaLazy is Percona Server's innodb_lazy_drop_table (5.1.56, 5.5.10 – 5.5.30;
// docs/innodb-source.md §8): DROP TABLE does not free the table's pages. fil_delete_tablespace
// calls buf_LRU_mark_space_was_deleted instead of buf_LRU_invalidate_tablespace /
// buf_LRU_flush_or_remove_pages: one walk of every instance's whole LRU under the LRU mutex,
// no yield, flagging the space's pages, then a pass over every control block of every chunk
// dropping the AHI entries of the space's hashed pages. The work left for later: a flagged
// page is freed when a lookup meets it, is replaceable even when dirty, and is taken off the
// flush list instead of written — the stale-page paths of the pool (Traits.FreesStale).
// The per-page freeing of the table's extents (5.5's dict_drop_index_tree) still runs: it is
// the DDL's, not the pool's. TRUNCATE, DISCARD and the rest are the server's own code
// (fullscan's). Percona Server 5.6 dropped the feature; selecting it there is a what-if.
// Parameters: fullscan's (its flushes are the server's).
type PerconaLazy struct {
	Fullscan // DropPages runs the version table's percona_lazy rows
}

func newPerconaLazy(srv *server.Server, params config.Params) (server.Policy, error) {
	f, err := fullscanOf(srv, params, "percona_lazy", version.PolicyPerconaLazy)
	return &PerconaLazy{Fullscan: f}, err
}

// FreesStale: flagged pages stay until met.
func (p *PerconaLazy) FreesStale() bool { return true }

// Stale is bpage->space_was_being_deleted: the page belongs to a dropped tablespace.
func (p *PerconaLazy) Stale(sp *server.Space, _ uint16) bool { return sp.Deleted }
