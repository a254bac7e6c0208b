package server

import (
	"fmt"

	"github.com/ddlsim/ddlsim/model/bufpool"
	"github.com/ddlsim/ddlsim/sim"
)

// Instance is one buffer-pool instance: its data structures and the mutexes that guard them.
//
// 8.0 (buf0buf.h): LRU_list_mutex guards the LRU, free_list_mutex the free list,
// flush_list_mutex the flush list. 5.5 – 5.7 and MariaDB: one buf_pool->mutex guards LRU,
// free list and page state, so LRU and Free are the same mutex; the flush list keeps its own.
type Instance struct {
	ID    int
	BP    *bufpool.Instance
	LRU   *sim.Mutex
	Free  *sim.Mutex
	Flush *sim.Mutex
}

func newInstance(s *Server, id int, frames int) *Instance {
	in := &Instance{ID: id, BP: bufpool.New(frames, s.Scenario.MySQL.OldBlocksPct)}
	in.BP.SetOldBlocksTime(uint32(int64(s.Scenario.MySQL.OldBlocksTime) / 1e6))
	if s.Traits.BigMutex {
		in.LRU = s.NewMutex(fmt.Sprintf("buf_pool_mutex[%d]", id))
		in.Free = in.LRU
	} else {
		in.LRU = s.NewMutex(fmt.Sprintf("LRU_list_mutex[%d]", id))
		in.Free = s.NewMutex(fmt.Sprintf("free_list_mutex[%d]", id))
	}
	in.Flush = s.NewMutex(fmt.Sprintf("flush_list_mutex[%d]", id))
	return in
}

// NewMutex is an InnoDB ib_mutex_t (TTASEventMutex) on this server's cores: contended, it spins
// (costs.mutex_spin, in syncSpinLoops rounds with a look at the lock word after each) then
// sleeps; unlock wakes every sleeper and running threads may barge.
// The server keeps every mutex it makes, for reports (Mutexes).
func (s *Server) NewMutex(name string) *sim.Mutex {
	m := sim.NewMutex(s.Sim, name, sim.MutexOptions{Cores: s.Cores, Spin: s.Costs.MutexSpin, SpinRounds: syncSpinLoops, Handoff: s.Costs.MutexHandoff, WakeAll: true})
	s.mutexes = append(s.mutexes, m)
	return m
}

// syncSpinLoops is innodb_sync_spin_loops (default 30): the rounds of TTASEventMutex::is_free,
// each a ut_delay of up to innodb_spin_wait_delay (6) × the pause multiplier, after which the
// spinner looks at the lock word; costs.mutex_spin is all 30 rounds.
const syncSpinLoops = 30

// Mutexes lists every mutex made by NewMutex, in creation order.
func (s *Server) Mutexes() []*sim.Mutex {
	return s.mutexes
}
