package server

import (
	"github.com/ddlsim/ddlsim/model/schema"
	"github.com/ddlsim/ddlsim/sim"
)

// Metadata locks (sql/mdl.cc; docs/innodb-source.md §8.4): one lock object per table, the
// types the model's statements take, the granted-compatibility and the waiting-priority
// matrices of MDL_object_lock, and lock_wait_timeout.
//   - DML takes MDL_SHARED_READ (SELECT) or MDL_SHARED_WRITE (INSERT/UPDATE/DELETE) on each
//     table it touches, held to the end of its transaction;
//   - online ALTER (ADD INDEX, OPTIMIZE) holds MDL_SHARED_UPGRADABLE while it builds and
//     upgrades to MDL_EXCLUSIVE for its prepare and commit; DROP and TRUNCATE hold
//     MDL_EXCLUSIVE throughout; FLUSH TABLES ... FOR EXPORT holds MDL_SHARED_NO_WRITE;
//   - a request is granted when no other context holds an incompatible type *and* no
//     incompatible type is waiting (a queued X request blocks every new SR/SW request on the
//     table: why a waiting DDL stalls all new DML), else it waits in FIFO order until granted
//     or lock_wait_timeout (ER_LOCK_WAIT_TIMEOUT);
//   - max_write_lock_count's anti-starvation matrices are not modelled (its default,
//     ULONG_MAX, never switches them).

// MDL is a metadata-lock type (mdl.h enum_mdl_type, the ones the model uses).
type MDL uint8

const (
	MDLNone             MDL = iota
	MDLSharedRead           // MDL_SHARED_READ: SELECT
	MDLSharedWrite          // MDL_SHARED_WRITE: INSERT, UPDATE, DELETE
	MDLSharedUpgradable     // MDL_SHARED_UPGRADABLE: online ALTER while it builds
	MDLSharedNoWrite        // MDL_SHARED_NO_WRITE: FLUSH TABLES ... FOR EXPORT
	MDLExclusive            // MDL_EXCLUSIVE
	nMDL
)

func (m MDL) String() string {
	return [...]string{"none", "shared_read", "shared_write", "shared_upgradable", "shared_no_write", "exclusive"}[m]
}

// grantedIncompatible[r] has bit g set when a request of type r is incompatible with a lock of
// type g granted to another context (MDL_object_lock::m_granted_incompatible).
var grantedIncompatible = [nMDL]uint8{
	MDLSharedRead:       1 << MDLExclusive,
	MDLSharedWrite:      1<<MDLSharedNoWrite | 1<<MDLExclusive,
	MDLSharedUpgradable: 1<<MDLSharedUpgradable | 1<<MDLSharedNoWrite | 1<<MDLExclusive,
	MDLSharedNoWrite:    1<<MDLSharedWrite | 1<<MDLSharedUpgradable | 1<<MDLSharedNoWrite | 1<<MDLExclusive,
	MDLExclusive:        1<<MDLSharedRead | 1<<MDLSharedWrite | 1<<MDLSharedUpgradable | 1<<MDLSharedNoWrite | 1<<MDLExclusive,
}

// waitingIncompatible[r] has bit w set when a request of type r must queue behind a waiting
// request of type w (MDL_object_lock::m_waiting_incompatible, matrix 0).
var waitingIncompatible = [nMDL]uint8{
	MDLSharedRead:       1 << MDLExclusive,
	MDLSharedWrite:      1<<MDLSharedNoWrite | 1<<MDLExclusive,
	MDLSharedUpgradable: 1 << MDLExclusive,
	MDLSharedNoWrite:    1 << MDLExclusive,
}

// mdlLock is one table's MDL_lock.
type mdlLock struct {
	granted [nMDL]int32 // granted locks by type, all contexts
	waiting []*mdlWait  // FIFO
}

type mdlWait struct {
	t       *Thread
	want    MDL
	have    MDL // the type the context already holds on this table (an upgrade)
	granted bool
	timed   bool
	timer   sim.EventID
}

func (l *mdlLock) waitingBits() (b uint8) {
	for _, w := range l.waiting {
		b |= 1 << w.want
	}
	return b
}

// grantable reports whether a context holding have may get want now.
func (l *mdlLock) grantable(want, have MDL, queueAhead uint8) bool {
	g := l.granted
	if have != MDLNone {
		g[have]-- // its own lock does not conflict with itself
	}
	for typ := MDL(1); typ < nMDL; typ++ {
		if g[typ] > 0 && grantedIncompatible[want]&(1<<typ) != 0 {
			return false
		}
	}
	return queueAhead&waitingIncompatible[want] == 0
}

// waitsFor reports whether a request for want, from a context holding have, is blocked by a
// queued request that itself waits for have: a deadlock cycle.
func (l *mdlLock) waitsFor(want, have MDL) bool {
	blocking := l.waitingBits() & waitingIncompatible[want]
	for typ := MDL(1); typ < nMDL; typ++ {
		if blocking&(1<<typ) != 0 && grantedIncompatible[typ]&(1<<have) != 0 {
			return true
		}
	}
	return false
}

// tableMDL returns tab's lock object.
func (s *Server) tableMDL(tab *schema.Table) *mdlLock {
	l := s.mdl[tab]
	if l == nil {
		l = &mdlLock{}
		if s.mdl == nil {
			s.mdl = map[*schema.Table]*mdlLock{}
		}
		s.mdl[tab] = l
	}
	return l
}

// MDLResult is how an MDL request ended.
type MDLResult uint8

const (
	MDLGranted  MDLResult = iota
	MDLTimeout            // lock_wait_timeout passed: ER_LOCK_WAIT_TIMEOUT
	MDLDeadlock           // the MDL deadlock detector chose this DML as the victim: ER_LOCK_DEADLOCK
)

// AcquireMDL moves the thread's lock on tab from have to want (MDLNone: a first acquisition; a
// stronger type: an upgrade; a weaker one: a downgrade, never waiting), waiting if it must. It
// returns MDLTimeout when lock_wait_timeout passed first (the lock is then still have).
//
// A DML context that already holds a lock on the table (a transaction that read it and now
// writes it) and is blocked only by a queued request would wait for a request that waits for
// its own lock: a cycle, which MDL_context::find_deadlock breaks by failing the lower-weight
// context — the DML (DEADLOCK_WEIGHT_DML) — with ER_LOCK_DEADLOCK. The model fails it at once.
// dml marks such a context.
func (t *Thread) AcquireMDL(tab *schema.Table, have, want MDL, dml bool) MDLResult {
	s := t.Srv
	l := s.tableMDL(tab)
	if want == have {
		return MDLGranted
	}
	if want < have { // a downgrade (X to SU after ALTER's prepare) or a release
		l.move(have, want)
		l.grantWaiting(s)
		return MDLGranted
	}
	if l.grantable(want, have, l.waitingBits()) {
		l.move(have, want)
		return MDLGranted
	}
	// Pay before queueing: paying may wait for a core, and nothing may wake the thread between
	// joining the queue and parking. Then look again: the lock may have changed meanwhile.
	t.Pay()
	if l.grantable(want, have, l.waitingBits()) {
		l.move(have, want)
		return MDLGranted
	}
	if dml && have != MDLNone && l.grantable(want, have, 0) && l.waitsFor(want, have) {
		s.Stats.MDLDeadlocks++
		return MDLDeadlock
	}
	w := &mdlWait{t: t, want: want, have: have}
	l.waiting = append(l.waiting, w)
	s.Stats.MDLWaits++
	if to := t.lockWaitTimeout(); to > 0 {
		w.timed = true
		w.timer = s.Sim.After(to, func() {
			if !w.granted {
				l.remove(w)
				l.grantWaiting(s)
				t.Proc.Wake(0)
			}
		})
	}
	start := t.Now()
	s.Stats.MDLWaiting++
	t.Proc.Park()
	s.Stats.MDLWaiting--
	s.Stats.MDLWaitNs += uint64(t.Now() - start)
	if !w.granted {
		s.Stats.MDLTimeouts++
		return MDLTimeout
	}
	return MDLGranted
}

// ReleaseMDL releases the thread's lock of type have on tab.
func (t *Thread) ReleaseMDL(tab *schema.Table, have MDL) {
	if have == MDLNone {
		return
	}
	l := t.Srv.tableMDL(tab)
	l.move(have, MDLNone)
	l.grantWaiting(t.Srv)
}

func (l *mdlLock) move(from, to MDL) {
	if from != MDLNone {
		l.granted[from]--
	}
	if to != MDLNone {
		l.granted[to]++
	}
}

func (l *mdlLock) remove(w *mdlWait) {
	for i, x := range l.waiting {
		if x == w {
			l.waiting = append(l.waiting[:i], l.waiting[i+1:]...)
			return
		}
	}
}

// grantWaiting grants, in queue order, every waiting request that is compatible with what is
// granted and with the requests queued ahead of it (MDL_lock::reschedule_waiters).
func (l *mdlLock) grantWaiting(s *Server) {
	var ahead uint8
	for i := 0; i < len(l.waiting); {
		w := l.waiting[i]
		if l.grantable(w.want, w.have, ahead) {
			l.move(w.have, w.want)
			w.granted = true
			l.waiting = append(l.waiting[:i], l.waiting[i+1:]...)
			if w.timed {
				s.Sim.Cancel(w.timer)
			}
			w.t.Proc.Wake(0)
			continue
		}
		ahead |= 1 << w.want
		i++
	}
}

// MDLWaiting is the number of requests waiting for tab's lock (for tests and reports).
func (s *Server) MDLWaiting(tab *schema.Table) int {
	if l := s.mdl[tab]; l != nil {
		return len(l.waiting)
	}
	return 0
}
