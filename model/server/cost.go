package server

import (
	"github.com/ddlsim/ddlsim/model/config"
	"github.com/ddlsim/ddlsim/sim"
)

// PathCosts are the CPU costs by access path (docs/cpu-model.md §9.1): what a lookup, a
// record change, a page write and a log write cost, operation by operation, each measured by
// a model/calib benchmark or the lab's write probe. On is false when the profile writes
// none of rec_cmp and index_latch: then a lookup is charged as before (page_hit per page).
// The others are opt-in one by one (0: not charged, and no latch taken for them): the
// record changes' (Thread.Change, Thread.Mtr), the write paths' (Server.WriteCPU) and
// statement_sys, so a profile that writes none of them runs as before they existed.
type PathCosts struct {
	On                                    bool
	RecCmp, IndexLatch                    sim.Time
	AHIGuess, AHIDescent                  sim.Time
	AHIRecInsert, AHIRecDelete, AHILatchX sim.Time
	MtrCommit, RedoKiB                    sim.Time
	SeqWriteCPU, SeqWriteKiB, SyncCPU     sim.Time
	StatementSys                          sim.Time
}

func pathCostsFrom(c config.Costs) PathCosts {
	d := func(x config.Duration) sim.Time { return sim.Time(x) }
	return PathCosts{
		On: c.Paths(), RecCmp: d(c.RecCmp), IndexLatch: d(c.IndexLatch),
		AHIGuess: d(c.AHIGuess), AHIDescent: d(c.AHIDescent),
		AHIRecInsert: d(c.AHIRecInsert), AHIRecDelete: d(c.AHIRecDelete), AHILatchX: d(c.AHILatchX),
		MtrCommit: d(c.MtrCommit), RedoKiB: d(c.RedoKiB),
		SeqWriteCPU: d(c.SeqWriteCPU), SeqWriteKiB: d(c.SeqWriteKiB), SyncCPU: d(c.SyncCPU),
		StatementSys: d(c.StatementSys),
	}
}

// PathStats counts the access-path model's operations: how lookups went and what the AHI's
// maintenance did (for tests and the naive oracles; not in the series).
type PathStats struct {
	// Guesses are lookups answered by btr_search_guess_on_hash (the leaf only); Descents are
	// lookups that went root to leaf.
	Guesses, Descents uint64
	// AHIRecChanges are record changes on hashed pages that maintained the AHI;
	// AHIWriteLatches the partition X latches writes took for it.
	AHIRecChanges, AHIWriteLatches uint64
	// Mtrs are mini-transactions committed through Thread.Change / Thread.Mtr; RedoBytes their
	// redo.
	Mtrs, RedoBytes uint64
	// WriteCPUNs is the I/O CPU charged through WriteCPU (all write paths), SeqWrites and
	// Syncs its sequential writes and syncs.
	WriteCPUNs, SeqWrites, Syncs uint64
}
