package workload

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/ddlsim/ddlsim/model/schema"
	"github.com/ddlsim/ddlsim/model/server"
)

// A client's session state across a transaction: the metadata locks its statements took
// (held to the end of the transaction, sql/mdl.h MDL_TRANSACTION) and the SQL errors that end a
// transaction early.

// MySQL error numbers the model produces.
const (
	errNoSuchTable     = 1146 // ER_NO_SUCH_TABLE: the table was dropped
	errLockWaitTimeout = 1205 // ER_LOCK_WAIT_TIMEOUT: lock_wait_timeout passed waiting for an MDL
	errLockDeadlock    = 1213 // ER_LOCK_DEADLOCK: the MDL deadlock detector's victim
)

// sqlError aborts a transaction (raised with panic inside the transaction, caught by
// client.attempt).
type sqlError struct{ code int }

type heldMDL struct {
	tab *schema.Table
	mdl server.MDL
}

// use takes the statement's metadata lock on tab — MDL_SHARED_READ to read,
// MDL_SHARED_WRITE to write — unless the transaction holds it already. A dropped table fails
// the statement with ER_NO_SUCH_TABLE, a wait past lock_wait_timeout with
// ER_LOCK_WAIT_TIMEOUT.
func (c *client) use(tab *schema.Table, write bool) {
	if !write {
		c.t.OpenReadView() // a consistent read: the transaction's read view (purge.go)
	}
	want := server.MDLSharedRead
	if write {
		want = server.MDLSharedWrite
	}
	i := 0
	for ; i < len(c.held); i++ {
		if c.held[i].tab == tab {
			break
		}
	}
	have := server.MDLNone
	if i < len(c.held) {
		have = c.held[i].mdl
		if have >= want {
			return
		}
	}
	if tab.Dropped {
		panic(sqlError{errNoSuchTable})
	}
	switch c.t.AcquireMDL(tab, have, want, true) {
	case server.MDLTimeout:
		panic(sqlError{errLockWaitTimeout})
	case server.MDLDeadlock:
		panic(sqlError{errLockDeadlock})
	}
	if i < len(c.held) {
		c.held[i].mdl = want
	} else {
		c.held = append(c.held, heldMDL{tab, want})
	}
	if tab.Dropped { // dropped while this statement waited for the lock
		panic(sqlError{errNoSuchTable})
	}
}

// endTxn releases the transaction's metadata locks (COMMIT, ROLLBACK); a committed
// transaction's undo enters the history list (a rolled-back one's was dropped by attempt).
func (c *client) endTxn() {
	c.t.EndTrx(true)
	for _, h := range c.held {
		c.t.ReleaseMDL(h.tab, h.mdl)
	}
	c.held = c.held[:0]
}

// attempt runs one transaction; it returns false when a SQL error ended it (c.err is its
// number): the transaction is rolled back (its locks released) and the error counted.
func (c *client) attempt(txn func()) (ok bool) {
	defer func() {
		if ok {
			return
		}
		r := recover()
		e, isSQL := r.(sqlError)
		if !isSQL {
			panic(r) // not ours
		}
		c.err = e.code
		c.t.Srv.Stats.Errors++
		c.t.EndTrx(false) // rolled back: its undo records are not purged
		c.endTxn()
	}()
	txn()
	return true
}

// parseIgnoreErrors reads sysbench's --mysql-ignore-errors ("" = its default).
func parseIgnoreErrors(s string) (func(code int) bool, error) {
	if s == "" {
		s = "1213,1020,1205"
	}
	if s == "all" {
		return func(int) bool { return true }, nil
	}
	set := map[int]bool{}
	for _, f := range strings.Split(s, ",") {
		n, err := strconv.Atoi(strings.TrimSpace(f))
		if err != nil || n <= 0 {
			return nil, fmt.Errorf("expected MySQL error numbers separated by commas (e.g. 1213,1020,1205,1146) or all, found %q", f)
		}
		set[n] = true
	}
	return func(code int) bool { return set[code] }, nil
}
