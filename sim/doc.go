// Package sim is ddlsim's discrete-event kernel: a virtual clock, one event queue, coroutine
// processes and three generic resources (CPU cores, a mutex, a storage device), plus
// seeded random streams, latency distributions and fixed-memory histograms. It knows nothing
// about databases; package model builds InnoDB's buffer pool on top of it.
//
// # What it models
//
//   - Time is virtual: an int64 count of nanoseconds owned by the kernel. Nothing in this
//     package reads the wall clock, so a run is a pure function of its seed and inputs.
//   - Events are ordered by (time, sequence number). Two events at the same instant run in the
//     order they were scheduled; a rescheduled event takes a fresh sequence number, as if it
//     had been scheduled anew at the moment it was moved.
//   - A process (Proc) is a simulated thread written as straight-line Go. It runs as an
//     iter.Pull coroutine and gives control back to the kernel only by parking (Sleep, Park,
//     or blocking in a resource). Exactly one coroutine runs at a time and every resumption
//     is an event (or a zero-delay wake-up chained to the end of the running event, where
//     its event would have been the next to fire), so goroutine scheduling never decides
//     anything.
//   - Cores is a pool of N CPUs shared round-robin: a thread that computes holds a core for a
//     slice of at most one quantum while others wait in a FIFO run queue, and for as long as
//     it likes while nobody waits. It assumes an ideal scheduler: no context-switch cost, no
//     affinity, no priorities (add a cost by calling Compute for it).
//   - Mutex is modelled on InnoDB's spin-then-sleep mutexes: a contended waiter first spins
//     (burning a core), then sleeps. It has two disciplines. FIFO hand-off (the default):
//     Unlock hands ownership to the oldest sleeper, which runs after a futex wake-up latency,
//     and nobody barges past sleepers. WakeAll (InnoDB's TTASEventMutex, which the server's
//     buffer-pool mutexes use): Unlock frees the mutex and wakes every sleeper, who spin and
//     race for it again, and a running thread may take it first — it barges.
//   - Device is a storage device with parallel channels (queue depth), a FIFO queue in front,
//     a sampled service latency per operation type and one shared bandwidth budget.
//
// # Determinism
//
// One seed goes in (New); every component draws from its own stream (Stream), keyed by name,
// so adding a component does not shift the numbers another one sees. No map is iterated to
// decide anything. Same seed and same calls ⇒ the same trace, bit for bit.
//
// # Statistics
//
// Histograms are HDR-style (log-linear, 64 sub-buckets per power of two): fixed memory
// (about 9 KB), no allocation per Record, quantiles within 1% up to 73 minutes, exact count,
// sum, min, max and mean. Stats methods return snapshots (Cores, Device) or the live record
// (Mutex).
//
// # Programmer errors
//
// Misuse panics: scheduling in the past, Unlock by a non-holder, a second Wake of a process
// that is already due to wake, Park outside the process's own body. A panic in a process body
// leaves Run as a *ProcPanic naming the process and carrying the body's stack.
//
// # Costs
//
// The event queue is a 4-ary heap of 16-byte value entries with a slot table for
// cancel/reschedule; scheduling, firing and resuming a process do not allocate once the
// tables have grown to the working set. On the 2-core development machine it fires about
// 14 M events/s with 10^4 pending and 3 M/s with 10^6; a process Sleep round trip (event plus
// two coroutine switches) costs about 85 ns and an uncontended Lock/Unlock about 10 ns. See
// sim_bench_test.go.
package sim
