// Package calib holds the micro-benchmarks that measure, on the machine they run on, the
// per-item CPU costs the hardware profiles carry (scenarios/profiles/*.yaml). Each profile
// constant that comes from here names its benchmark, the command and the measured value;
// docs/validation.md's constants table says which constants are measured and which fitted.
//
//	go test -run '^$' -bench . -count 5 ./model/calib/
//
// The package has no non-test code: it is measurement, not model. Where the Go analogue would
// not be faithful, the loop is a C transcription of the server's in the cbench subpackage
// (cgo), which the benchmarks call once per run (docs/cpu-model.md).
package calib
