package server

import (
	"fmt"

	"github.com/ddlsim/ddlsim/model/config"
)

// The pool-fill check (issue 24): a scenario whose data fills under half of the buffer pool
// leaves most of the simulated pool empty, so nearly every read hits it and the DDL's
// stall, which grows with what the pool holds and what it must read, comes out smaller than
// the real server's when its real working set is larger than the data written. A real
// server's pool is full after a while unless the data really is that small; the scenario
// says so with warm.whole_working_set.

// PoolFillShare is the share of the pool below which the data leaves it "mostly empty".
const PoolFillShare = 0.5

// PoolFillWarnings is the pool-fill check, one of the assembly's config.Schema.Warners: a
// warning at `data:` when all data groups' pages, as buildTables builds them, fill under
// PoolFillShare of the pool's frames (as New sizes the instances), unless warm.whole_working_set.
func PoolFillWarnings(sc *config.Scenario) []config.Warning {
	if sc.Warm.WholeWorkingSet || len(sc.Data) == 0 {
		return nil
	}
	page := int64(sc.MySQL.PageSize)
	n := int64(sc.MySQL.BufferPoolInstances)
	if page <= 0 || n <= 0 {
		return nil
	}
	frames := int64(sc.MySQL.BufferPoolSize) / page / n * n
	var pages int64
	for _, g := range sc.Data {
		pages = satAdd(pages, GroupTotalPages(g, page))
	}
	if frames <= 0 || float64(pages) >= PoolFillShare*float64(frames) {
		return nil
	}
	return []config.Warning{{Path: "data", Msg: fmt.Sprintf(
		"the data groups hold %s (%d pages), %.0f%% of the %s buffer pool: the simulated pool stays mostly empty, nearly every read hits it (hit ratio ~1) and the answer may be too optimistic. "+
			"Describe the rest of the server's working set as data groups (ddlsim import --tables writes them), or, if this data is all the server has, say so with warm: {whole_working_set: true}",
		roughSize(float64(pages)*float64(page)), pages, 100*float64(pages)/float64(frames), sc.MySQL.BufferPoolSize)}}
}

// roughSize prints a byte count for people: 9.4 GiB, 640 MiB.
func roughSize(b float64) string {
	switch {
	case b >= float64(config.GiB):
		return fmt.Sprintf("%.1f GiB", b/float64(config.GiB))
	case b >= float64(config.MiB):
		return fmt.Sprintf("%.0f MiB", b/float64(config.MiB))
	}
	return fmt.Sprintf("%.0f KiB", b/float64(config.KiB))
}
