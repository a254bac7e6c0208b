package maint

import "github.com/ddlsim/ddlsim/model/bufpool"

// Internals the external tests (the literal-walk oracles of scan_oracle_test.go) need.

// YieldEvery is BUF_LRU_DROP_SEARCH_SIZE as the walks use it.
const YieldEvery = yieldEvery

// Is is the flush walk's target test.
func (tg FlushTarget) Is(bp *bufpool.Instance, f bufpool.FrameID) bool { return tg.is(bp, f) }
