//go:build invariants

package server

// Invariants is true in builds with the invariants tag (go test -tags invariants): the
// buffer pool's invariants are checked after every policy call and at every report interval.
const Invariants = true
