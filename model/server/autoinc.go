package server

import "github.com/ddlsim/ddlsim/model/schema"

// The AUTO-INC table lock (docs/osc.md §6.3.1), as ha_innobase::write_row takes it on a table
// with an AUTO_INCREMENT column: after a row is inserted with an explicit id (the copy tools'
// rows keep the source's ids, so get_auto_increment is never called and autoinc_last_value
// is 0), write_row goes to set_max_autoinc → innobase_set_max_autoinc →
// innobase_lock_autoinc (MariaDB 10.11 and MySQL 5.7/8.0 ha_innodb.cc alike):
//
//   - innodb_autoinc_lock_mode 0 ("traditional"): row_lock_table_autoinc_for_mysql, the
//     table-level LOCK_AUTO_INC, for every insert;
//   - 1 ("consecutive"): for a statement whose thd_sql_command is INSERT or REPLACE (a
//     "simple insert"; MariaDB also SQLCOM_END, a row event) only dict_table_t::autoinc_mutex,
//     unless n_waiting_or_granted_auto_inc_locks says another transaction holds or waits for
//     the table lock: then the table lock too. Every other statement takes the table lock: an
//     INSERT ... SELECT, and a row a trigger inserts on behalf of an UPDATE (the trigger runs
//     inside the UPDATE, so thd_sql_command is SQLCOM_UPDATE);
//   - 2 ("interleaved"): only the mutex, never the table lock.
//
// The table lock is held until the end of the statement that took it (lock_release_autoinc_locks
// from row_unlock_table_autoinc_for_mysql at the statement's end), granted in FIFO order
// (lock_table: an AUTO-INC lock conflicts with every other transaction's AUTO-INC lock on the
// table). The autoinc_mutex's own hold is a few hundred nanoseconds and is not modelled.
//
// Simplified: the wait does not time out (innodb_lock_wait_timeout, 50 s by default, is far
// above any statement that holds the lock here: one copy chunk), and the deadlock detector
// is not modelled (an AUTO-INC waiter cannot close a cycle in the model: the lock's holders
// wait for nothing while they hold it).

// AutoIncMode is innodb_autoinc_lock_mode.
type AutoIncMode int

const (
	AutoIncTraditional AutoIncMode = 0
	AutoIncConsecutive AutoIncMode = 1
	AutoIncInterleaved AutoIncMode = 2
)

// autoIncLock is one table's LOCK_AUTO_INC queue: the holder and the waiters, FIFO.
type autoIncLock struct {
	holder  *Thread
	waiting []*Thread
}

// AutoIncStats counts the table lock's grants and waits over all tables.
type AutoIncStats struct {
	Grants, Waits uint64
	WaitNs        uint64
}

// AutoIncMode is the server's innodb_autoinc_lock_mode.
func (s *Server) AutoIncMode() AutoIncMode {
	if m := s.Scenario.MySQL.AutoIncLockMode; m != nil {
		return AutoIncMode(*m)
	}
	return AutoIncConsecutive
}

func (s *Server) autoIncOf(tab *schema.Table) *autoIncLock {
	l := s.autoinc[tab]
	if l == nil {
		if s.autoinc == nil {
			s.autoinc = map[*schema.Table]*autoIncLock{}
		}
		l = &autoIncLock{}
		s.autoinc[tab] = l
	}
	return l
}

// AutoIncBusy is n_waiting_or_granted_auto_inc_locks > 0 on tab: another statement holds or
// waits for its AUTO-INC table lock.
func (s *Server) AutoIncBusy(tab *schema.Table) bool {
	l := s.autoinc[tab]
	return l != nil && (l.holder != nil || len(l.waiting) > 0)
}

// InsertAutoInc is innobase_lock_autoinc for one row inserted into tab with an explicit id
// by a statement that is a simple INSERT/REPLACE (simple) or not (an INSERT ... SELECT, a
// trigger's insert under an UPDATE): whether the statement must take the table lock.
func (s *Server) InsertAutoInc(tab *schema.Table, simple bool) bool {
	switch s.AutoIncMode() {
	case AutoIncTraditional:
		return true
	case AutoIncConsecutive:
		return !simple || s.AutoIncBusy(tab)
	}
	return false
}

// LockAutoInc takes tab's AUTO-INC table lock for t's statement, waiting behind the holder
// and every earlier waiter. A thread that holds it already does not wait.
func (t *Thread) LockAutoInc(tab *schema.Table) {
	s := t.Srv
	l := s.autoIncOf(tab)
	if l.holder == t {
		return
	}
	s.Stats.AutoInc.Grants++
	if l.holder == nil && len(l.waiting) == 0 {
		l.holder = t
		return
	}
	// Pay before queueing (as AcquireMDL): paying may wait for a core, and nothing may wake
	// the thread between joining the queue and parking.
	t.Pay()
	if l.holder == nil && len(l.waiting) == 0 {
		l.holder = t
		return
	}
	l.waiting = append(l.waiting, t)
	s.Stats.AutoInc.Waits++
	start := t.Now()
	t.Proc.Park()
	s.Stats.AutoInc.WaitNs += uint64(t.Now() - start)
}

// UnlockAutoInc releases t's AUTO-INC lock on tab at its statement's end; the first waiter
// gets it.
func (t *Thread) UnlockAutoInc(tab *schema.Table) {
	l := t.Srv.autoinc[tab]
	if l == nil || l.holder != t {
		return
	}
	l.holder = nil
	if len(l.waiting) == 0 {
		return
	}
	next := l.waiting[0]
	l.waiting = l.waiting[1:]
	l.holder = next
	next.Proc.Wake(0)
}
