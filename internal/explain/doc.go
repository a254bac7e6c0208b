// Package explain says, in words, why a run's DDL statements took the time they took and what
// they did to the traffic: one paragraph per statement, generated from the run's own
// measurements — the phases that took the time (and what each phase of InnoDB's code waits
// on: the CPU, the data device, the flush of the new pages, the metadata lock), the metadata
// lock and mutex waits, the cores' and the data device's load during it against before it,
// and, with latency harm, in which phases the SLO was broken. Sensitivity re-runs the
// scenario with the three settings most relevant to where the time went at ×0.5 and ×1.5,
// one at a time, and reports what moved.
//
// Nothing here is a fitted or published number: every figure in a paragraph is read from the
// run (metrics.DDLResult, the series, the mutex rows); the phase descriptions say what the
// InnoDB routine behind the phase does (docs/model.md).
package explain
