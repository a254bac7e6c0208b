package workload

import (
	"testing"

	"github.com/ddlsim/ddlsim/sim"
)

// special.NextFrom, drawing from the stream's PCG directly, gives the keys Next gives through
// the *rand.Rand, with other draws on the Rand in between (as the sysbench client mixes
// them): the sequence is one.
func TestSpecialNextFromEqualsNext(t *testing.T) {
	k, err := NewKeys("special", 2_500_000)
	if err != nil {
		t.Fatal(err)
	}
	sp := k.(special)
	a := sim.New(7)
	defer a.Close()
	b := sim.New(7)
	defer b.Close()
	ra := a.Stream("c")
	rb, src := b.StreamWithSource("c")
	for i := range 100_000 {
		x, y := sp.Next(ra), sp.NextFrom(src)
		if x != y {
			t.Fatalf("draw %d: Next %d, NextFrom %d", i, x, y)
		}
		if i%3 == 0 && ra.IntN(16) != rb.IntN(16) {
			t.Fatalf("draw %d: the Rands diverged", i)
		}
	}
	var _ sourceKeys = sp
}
