package bufpool

import (
	"math/rand/v2"
	"testing"
)

// TestHashProbeDistances drives the page hash through long collision clusters, including
// clusters that wrap past the end of the table and distances past the saturation point,
// and after every insert and delete requires Check (which holds each slot's stored probe
// distance to the real distance from its home slot, saturated at distSat) and every
// resident page to be found.
func TestHashProbeDistances(t *testing.T) {
	for _, homes := range [][]uint32{{0, 1, 2}, {101, 102, 103, 0}, {50}} {
		in := New(64, DefaultOldPct)
		want := map[uint32]bool{}
		for _, h := range homes {
			want[h%in.hcap] = true
		}
		// Keys whose home slot is one of homes: long clusters on purpose.
		var keys []PageID
		for p := uint32(0); len(keys) < 60; p++ {
			k := MakePageID(3, p)
			if h, _ := in.home(k); want[h] {
				keys = append(keys, k)
			}
		}
		rng := rand.New(rand.NewPCG(uint64(homes[0]), 7))
		resident := map[PageID]FrameID{}
		check := func(op string) {
			t.Helper()
			if err := in.Check(); err != nil {
				t.Fatalf("homes %v, after %s: %v", homes, op, err)
			}
			for k, f := range resident {
				if g := in.Lookup(k); g != f {
					t.Fatalf("homes %v, after %s: lookup %v = %d, want %d", homes, op, k, g, f)
				}
			}
		}
		sat := false
		for step := 0; step < 3000; step++ {
			k := keys[rng.IntN(len(keys))]
			if f, ok := resident[k]; ok {
				in.Remove(f, true)
				delete(resident, k)
				check("delete " + k.String())
			} else if in.FreeLen() > 0 {
				f := in.TakeFree()
				in.AddToLRU(f, k, true)
				resident[k] = f
				check("insert " + k.String())
			}
			for _, s := range in.slots {
				if s != 0 && in.slotDist(s) == in.distSat {
					sat = true
				}
			}
		}
		if !sat {
			t.Errorf("homes %v: no saturated probe distance exercised", homes)
		}
	}
}

// TestCheckCatchesWrongDistance: a stored probe distance that disagrees with the slot's
// real distance from its home is reported.
func TestCheckCatchesWrongDistance(t *testing.T) {
	in := filled(t, 1000, 900)
	for i, s := range in.slots {
		if s != 0 {
			in.slots[i] = s ^ 1<<in.distShift
			break
		}
	}
	if in.Check() == nil {
		t.Fatal("wrong probe distance not detected")
	}
}
