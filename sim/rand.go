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
	r, _ := s.StreamWithSource(name)
	return r
}

// StreamWithSource is Stream with the PCG behind it. Drawing from the source directly
// advances the same sequence the *rand.Rand draws from, without the interface call per
// draw: a hot loop that needs many uniform draws (sysbench's special distribution sums 12)
// may take them from the source, mixed with calls on the Rand, and see the numbers it
// would have seen through the Rand alone.
func (s *Sim) StreamWithSource(name string) (*rand.Rand, *rand.PCG) {
	if st, ok := s.streams[name]; ok {
		return st.r, st.src
	}
	src := NewSource(s.seed, name)
	st := stream{rand.New(src), src}
	s.streams[name] = st
	return st.r, st.src
}

type stream struct {
	r   *rand.Rand
	src *rand.PCG
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
