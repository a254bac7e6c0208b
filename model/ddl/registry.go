package ddl

import "github.com/ddlsim/ddlsim/model/config"

// operations: adding a DDL operation is one file plus one line here.
var operations = []config.Kind{
	{Name: "create_index", Doc: "ALTER TABLE ... ADD INDEX, online: scan, sort, bulk load, observer flushes, row-log apply", New: func() config.Params { return new(CreateIndex) }},
	{Name: "optimize_table", Doc: "OPTIMIZE TABLE / ALTER TABLE ... FORCE: online rebuild into a new tablespace, then the old one dropped", New: func() config.Params { return new(OptimizeTable) }},
	{Name: "drop_table", Doc: "DROP TABLE: the AHI cleanup and the tablespace's pages dropped from the pool", New: func() config.Params { return new(DropTable) }, Drops: "ER_NO_SUCH_TABLE"},
	{Name: "truncate_table", Doc: "TRUNCATE TABLE: 8.0 drop + re-create; 5.7 in place", New: func() config.Params { return new(TruncateTable) }},
	{Name: "discard_tablespace", Doc: "ALTER TABLE ... DISCARD TABLESPACE: every page of the space removed (ALL_NO_WRITE)", New: func() config.Params { return new(DiscardTablespace) }, Drops: "ER_TABLESPACE_DISCARDED"},
	{Name: "flush_for_export", Doc: "FLUSH TABLES ... FOR EXPORT: the space's dirty pages written (FLUSH_WRITE)", New: func() config.Params { return new(FlushForExport) }},
	{Name: "encrypt_tablespace", Doc: "ALTER TABLESPACE ... ENCRYPTION='Y': every page dirtied, then FLUSH_WRITE", New: func() config.Params { return new(EncryptTablespace) }},
	{Name: "decrypt_tablespace", Doc: "ALTER TABLESPACE ... ENCRYPTION='N': every page dirtied, then FLUSH_WRITE", New: func() config.Params { return new(EncryptTablespace) }},
	{Name: "undo_truncate", Doc: "undo tablespace truncation (innodb_undo_log_truncate): its pages dropped", New: func() config.Params { return new(UndoTruncate) }, NoTable: true},
}

// Kinds lists the DDL operations, for the assembly's config.Schema (model/runner).
func Kinds() []config.Kind { return operations }
