package ddl

import (
	"github.com/ddlsim/ddlsim/model/server"
	"github.com/ddlsim/ddlsim/model/version"
)

// The session temporary tablespace operations (8.0.13+, srv/srv0tmp.cc). They are not
// scheduled statements: a session's disconnect (TempTruncate) and the tablespace pool's growth
// (TempCreate) run them, from the temp_table_connections workload.

// TempTruncate is Tablespace_pool::free_ts → fil_truncate_tablespace at disconnect, for a
// session that extended its temp tablespace: 8.0.23+ bumps the space version
// (bump_version()); before, the policy's scan frees the pages (docs/innodb-source.md §3).
// The truncation is logged on the server for the run's summary.
func TempTruncate(t *server.Thread, sp *server.Space) server.ScanStats {
	srv := t.Srv
	start := t.Now()
	sp.Version++
	st := srv.DropPages(t, sp, version.OpTempTruncate)
	t.Pay()
	sp.NextPage = 3
	srv.Stats.TempTruncations++
	srv.TempTruncations = append(srv.TempTruncations, server.TempTruncation{Start: start, End: t.Now(), Stats: st})
	return st
}

// TempCreate is ibt::Tablespace::create's buf_LRU_flush_or_remove_pages(BUF_REMOVE_FLUSH_WRITE)
// of the new (empty) tablespace: a full flush-list scan under fullscan.
func TempCreate(t *server.Thread, sp *server.Space) server.ScanStats {
	return t.Srv.FlushPages(t, sp, 0, version.OpTempCreate)
}
