package server

import (
	"fmt"

	"github.com/ddlsim/ddlsim/model/bufpool"
	"github.com/ddlsim/ddlsim/sim"
)

// Instance is one buffer-pool instance: its data structures and the mutexes that guard them.
//
// 8.0 (buf0buf.h): LRU_list_mutex guards the LRU, free_list_mutex the free list,
// flush_list_mutex the flush list. 5.7: one buf_pool->mutex guards LRU, free list and page
// state, so LRU and Free are the same mutex; the flush list keeps its own.
type Instance struct {
	ID    int
	BP    *bufpool.Instance
	LRU   *sim.Mutex
	Free  *sim.Mutex
	Flush *sim.Mutex
}

func newInstance(s *Server, id int, frames int) *Instance {
	in := &Instance{ID: id, BP: bufpool.New(frames, s.Sc.MySQL.OldBlocksPct)}
	in.BP.SetOldBlocksTime(uint32(int64(s.Sc.MySQL.OldBlocksTime) / 1e6))
	// InnoDB's ib_mutex_t (TTASEventMutex): unlock wakes every sleeper, running threads barge.
	opt := sim.MutexOptions{Cores: s.Cores, Spin: s.Costs.MutexSpin, Handoff: s.Costs.MutexHandoff, WakeAll: true}
	if s.V57 {
		in.LRU = sim.NewMutex(s.Sim, fmt.Sprintf("buf_pool_mutex[%d]", id), opt)
		in.Free = in.LRU
	} else {
		in.LRU = sim.NewMutex(s.Sim, fmt.Sprintf("LRU_list_mutex[%d]", id), opt)
		in.Free = sim.NewMutex(s.Sim, fmt.Sprintf("free_list_mutex[%d]", id), opt)
	}
	in.Flush = sim.NewMutex(s.Sim, fmt.Sprintf("flush_list_mutex[%d]", id), opt)
	return in
}
