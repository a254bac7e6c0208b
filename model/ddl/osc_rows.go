package ddl

import "github.com/ddlsim/ddlsim/model/server"

// shadowRows is which ids the shadow table holds, as far as a trigger's REPLACE needs to know:
// whether it finds the row (a duplicate: REPLACE updates it in place and takes no AUTO-INC
// lock) or inserts it (write_row succeeds: innobase_set_max_autoinc, model/server autoinc.go).
// The copy has put ids [0, copied) there; a trigger may have inserted ids past it (present)
// or deleted ids below it (gone).
type shadowRows struct {
	copied  int64
	present map[int64]bool
	gone    map[int64]bool
}

func (r *shadowRows) has(id int64) bool {
	if id < r.copied {
		return !r.gone[id]
	}
	return r.present[id]
}

func (r *shadowRows) put(id int64) {
	if id < r.copied {
		delete(r.gone, id)
		return
	}
	if r.present == nil {
		r.present = map[int64]bool{}
	}
	r.present[id] = true
}

func (r *shadowRows) del(id int64) {
	if id >= r.copied {
		delete(r.present, id)
		return
	}
	if r.gone == nil {
		r.gone = map[int64]bool{}
	}
	r.gone[id] = true
}

// advance records a committed chunk up to hi: its rows are in the shadow now (INSERT IGNORE
// kept the ones a trigger had put there first).
func (r *shadowRows) advance(hi int64) {
	for id := range r.present {
		if id < hi {
			delete(r.present, id) // order-independent: each entry is judged on its own
		}
	}
	r.copied = max(r.copied, hi)
}

// ptTrigger is the body of pt-online-schema-change's three triggers (create_triggers; v3.2.1
// and 3.5.7 alike): AFTER DELETE `DELETE IGNORE FROM _new WHERE pk <=> OLD.pk`; AFTER UPDATE
// and AFTER INSERT `REPLACE INTO _new (cols) VALUES (NEW.cols)` (the UPDATE trigger also
// deletes the old pk first when the pk changed, which sysbench never does). A REPLACE that
// inserts takes the shadow's AUTO-INC table lock when innodb_autoinc_lock_mode says so: under
// an UPDATE always (mode 0 and 1: thd_sql_command is SQLCOM_UPDATE), under an INSERT only
// when another statement holds or waits for it (mode 1) — the copy's INSERT ... SELECT, which
// holds it for a whole chunk. The client's statement ends with its AFTER trigger, and the
// lock with it.
func ptTrigger(srv *server.Server, sh *shadow, st *OSCStats) server.Trigger {
	return func(ct *server.Thread, id int64, op server.RowOp) {
		ct.Charge(srv.Costs.Statement)
		if op == server.RowDelete {
			if sh.rows.has(id) {
				sh.writeRow(ct, id)
				sh.rows.del(id)
			}
		} else {
			lock := !sh.rows.has(id) && srv.InsertAutoInc(sh.tab, op == server.RowInsert)
			if lock {
				ct.LockAutoInc(sh.tab)
				st.TriggerAutoIncLocks++
			}
			sh.writeRow(ct, id)
			sh.rows.put(id)
			if lock {
				ct.Pay()
				ct.UnlockAutoInc(sh.tab)
			}
		}
		ct.LogRows(sh.tab, 1)
		st.TriggerRows++
	}
}
