package sim

import (
	"hash/fnv"
	"math/rand/v2"
)

// Stream returns the random stream of one component; the same (seed, name) always gives the
// same sequence, independent of the order streams are created in. Streams are cached by name:
// two callers asking for the same name share one *rand.Rand (and so each sees a different
// part of one sequence), so give every component its own name.
func (s *Sim) Stream(name string) *rand.Rand {
	if r, ok := s.streams[name]; ok {
		return r
	}
	r := rand.New(NewSource(s.seed, name))
	s.streams[name] = r
	return r
}

// NewSource is the PCG source behind Stream(name) for seed, for use outside a Sim.
func NewSource(seed uint64, name string) *rand.PCG {
	h := fnv.New64a()
	h.Write([]byte(name))
	n := h.Sum64()
	// splitmix64 both words so nearby seeds and similar names give unrelated PCG states.
	return rand.NewPCG(splitmix(seed^splitmix(n)), splitmix(n+0x9e3779b97f4a7c15*seed))
}

func splitmix(x uint64) uint64 {
	x += 0x9e3779b97f4a7c15
	x = (x ^ x>>30) * 0xbf58476d1ce4e5b9
	x = (x ^ x>>27) * 0x94d049bb133111eb
	return x ^ x>>31
}
