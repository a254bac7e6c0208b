package server

// Threads_running: the connections executing a command now. MySQL counts a command from its
// start to its end (sql/sql_parse.cc dispatch_command: inc_thread_running() before the
// command's switch, dec_thread_running() after its result is sent), so a connection waiting
// for a lock, a page read or a core inside its statement is running, and one waiting for its
// client's next packet (the round trip, the client's own CPU, an open-loop pause) is not. A
// binlog dump (COM_BINLOG_DUMP) is one command for its whole life. The throttles of
// pt-online-schema-change and gh-ost read it (SHOW GLOBAL STATUS LIKE 'Threads_running').

// StatementStart marks t's connection running: a command arrived (the round trip is over).
func (t *Thread) StatementStart() {
	t.endPending = false
	if !t.running {
		t.running = true
		t.Srv.Stats.ThreadsRunning++
	}
}

// StatementEnd ends t's command. The command's CPU may still be owed (charged inline, paid
// at the thread's next Pay or Sleep): the connection stops counting when that CPU has run,
// without a Pay of its own, so marking changes no timing. A StatementStart before then keeps
// it running.
func (t *Thread) StatementEnd() {
	if !t.running {
		return
	}
	if t.debt == 0 {
		t.idle()
		return
	}
	t.endPending = true
}

// StatementGone ends t's command now, owed CPU or not (a connection that closes).
func (t *Thread) StatementGone() {
	t.endPending = false
	if t.running {
		t.idle()
	}
}

func (t *Thread) idle() {
	t.running = false
	t.Srv.Stats.ThreadsRunning--
}

// settle is called when t's owed CPU has run: a pending StatementEnd takes effect.
func (t *Thread) settle() {
	if t.endPending {
		t.endPending = false
		t.idle()
	}
}

// ThreadsRunning is SHOW GLOBAL STATUS LIKE 'Threads_running' read by t's connection: the
// connections running a command, t's own (running the SHOW) included.
func (t *Thread) ThreadsRunning() int64 {
	n := t.Srv.Stats.ThreadsRunning
	if !t.running {
		n++
	}
	return n
}
