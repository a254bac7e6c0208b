package ddl

import (
	"github.com/ddlsim/ddlsim/model/config"
	"github.com/ddlsim/ddlsim/model/schema"
	"github.com/ddlsim/ddlsim/model/server"
	"github.com/ddlsim/ddlsim/model/version"
)

// EncryptTablespace is ALTER TABLESPACE ... ENCRYPTION = 'Y' or 'N' (encrypt_tablespace,
// decrypt_tablespace): fsp_alter_encrypt_tablespace's mark_all_page_dirty_in_tablespace reads
// and dirties every page of the space, then FLUSH_WRITE of the space (docs/innodb-source.md §6).
type EncryptTablespace struct {
	config.NoParams `yaml:"-"`
}

func (o *EncryptTablespace) Stages() []Stage {
	return []Stage{{Name: "alter", MDL: server.MDLExclusive, Phases: []string{"mark_dirty", "flush"}}}
}

func (o *EncryptTablespace) Run(x *Exec) {
	t, srv, tab, sp := x.T, x.Srv, x.Table, x.Space
	x.Phase("mark_dirty", func() server.ScanStats {
		for _, ix := range append([]*schema.Index{tab.Primary}, tab.Secondary...) {
			for l := 0; l < ix.Depth; l++ {
				for p := int64(0); p < ix.LevelPages[l]; p++ {
					t.Charge(srv.Costs.Row)
					t.Write(ix.Page(l, p))
				}
			}
		}
		return server.ScanStats{}
	})
	x.Phase("flush", func() server.ScanStats { return srv.FlushPages(t, sp, 0, version.OpEncrypt) })
}
