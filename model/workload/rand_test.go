package workload

import (
	"bufio"
	"math"
	"math/rand/v2"
	"os"
	"strconv"
	"strings"
	"testing"

	"github.com/ddlsim/ddlsim/sim"
)

// Each generator draws exactly what the transcribed C code draws from the same uniform stream.
func TestRandMatchesCOracle(t *testing.T) {
	for _, n := range []int64{1, 2, 7, 100, 1000, 999_983, 10_000_000} {
		for _, dist := range []string{"uniform", "gaussian", "special", "pareto", "zipfian"} {
			k, err := NewKeys(dist, n)
			if err != nil {
				t.Fatal(err)
			}
			r1, r2 := rand.New(rand.NewPCG(7, uint64(n))), rand.New(rand.NewPCG(7, uint64(n)))
			o := newSBOracle(r2)
			f := map[string]func(a, b uint32) uint32{"uniform": o.uniform, "gaussian": o.gaussian,
				"special": o.special, "pareto": o.pareto, "zipfian": o.zipfian}[dist]
			for i := 0; i < 20_000; i++ {
				got := k.Next(r1)
				want := int64(f(1, uint32(n))) - 1
				if want >= n { // the C's rare b+1 at the top of a range: the model clamps
					want = n - 1
				}
				if got != want || got < 0 || got >= n {
					t.Fatalf("%s n=%d draw %d: model %d, sb_rand.c %d", dist, n, i, got, want)
				}
			}
		}
	}
}

// The model's histograms agree with sysbench 1.0.20's own generators, run through its Lua API
// (testdata/sbrand.lua, output in testdata/sbrand-1.0.20.tsv): every band within 5 standard
// deviations of the difference of two counts. The special band's shape is the telling one: 75 %
// of draws spread over [t/2 − t/400, t/2 + t/200), none of them below t/2 − t/400, because the
// C code reuses the uniform that chose the branch.
func TestRandMatchesSysbenchHistograms(t *testing.T) {
	f, err := os.Open("testdata/sbrand-1.0.20.tsv")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	type band struct{ lo, hi, count int64 }
	bands := map[string][]band{}
	var order []string
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		fs := strings.Split(sc.Text(), "\t")
		if len(fs) != 5 || fs[0] != "band" {
			t.Fatalf("bad line %q", sc.Text())
		}
		var v [3]int64
		for i := range v {
			if v[i], err = strconv.ParseInt(fs[2+i], 10, 64); err != nil {
				t.Fatal(err)
			}
		}
		if _, ok := bands[fs[1]]; !ok {
			order = append(order, fs[1])
		}
		bands[fs[1]] = append(bands[fs[1]], band{v[0], v[1], v[2]})
	}
	if len(order) != 4 {
		t.Fatalf("distributions in the reference: %v, want uniform, gaussian, special, pareto", order)
	}
	const n, draws = 1_000_000, 2_000_000 // as sbrand.lua
	for _, dist := range order {
		bs := bands[dist]
		k, _ := NewKeys(dist, n)
		r := rand.New(rand.NewPCG(1, 2))
		counts := make([]int64, len(bs))
		for i := 0; i < draws; i++ {
			v := k.Next(r)
			j := 0
			for j < len(bs)-1 && v >= bs[j].hi {
				j++
			}
			counts[j]++
		}
		var total int64
		for j, b := range bs {
			total += b.count
			sd := math.Sqrt(float64(b.count + counts[j]))
			if d := math.Abs(float64(counts[j] - b.count)); d > 5*sd+1 {
				t.Errorf("%s [%d, %d): model %d draws, sysbench %d (difference %.0f > 5σ = %.0f)",
					dist, b.lo, b.hi, counts[j], b.count, d, 5*sd)
			}
		}
		if total != draws {
			t.Fatalf("%s: reference has %d draws, want %d", dist, total, draws)
		}
	}
}

// Moments and bands of each distribution, from its definition (not from sysbench's output).
func TestRandDistributionShapes(t *testing.T) {
	const n, draws = 1_000_000, 1_000_000
	sample := func(dist string) []int64 {
		k, err := NewKeys(dist, n)
		if err != nil {
			t.Fatal(err)
		}
		r := rand.New(rand.NewPCG(3, 4))
		out := make([]int64, draws)
		for i := range out {
			out[i] = k.Next(r)
		}
		return out
	}
	frac := func(xs []int64, lo, hi float64) float64 {
		c := 0
		for _, x := range xs {
			if float64(x) >= lo && float64(x) < hi {
				c++
			}
		}
		return float64(c) / float64(len(xs))
	}
	near := func(name string, got, want, tol float64) {
		if math.Abs(got-want) > tol {
			t.Errorf("%s = %.5f, want %.5f ± %.5f", name, got, want, tol)
		}
	}
	meanSD := func(xs []int64) (float64, float64) {
		var s, s2 float64
		for _, x := range xs {
			s += float64(x)
			s2 += float64(x) * float64(x)
		}
		m := s / float64(len(xs))
		return m, math.Sqrt(s2/float64(len(xs)) - m*m)
	}
	tt := float64(n - 1)

	u := sample("uniform")
	m, sd := meanSD(u)
	near("uniform mean/n", m/n, 0.5, 0.002)
	near("uniform sd/n", sd/n, 1/math.Sqrt(12), 0.002)

	g := sample("gaussian")
	m, sd = meanSD(g)
	near("gaussian mean/n", m/n, 0.5, 0.001)
	near("gaussian sd/n", sd/n, 1/math.Sqrt(12*12), 0.001) // Irwin-Hall of 12, scaled by 1/12

	s := sample("special")
	// 75 % uniform over the reachable 3/4 of the 1 % band in the middle, plus the bell's share.
	bandLo, bandHi := tt/2-tt/400, tt/2+tt/200
	bell := func(lo, hi float64) float64 { // P(bell in [lo, hi)), normal approximation, σ = t/12
		z := func(x float64) float64 { return 0.5 * math.Erfc(-(x-tt/2)/(tt/12)/math.Sqrt2) }
		return z(hi) - z(lo)
	}
	near("special in the band", frac(s, bandLo, bandHi), 0.75+0.25*bell(bandLo, bandHi), 0.003)
	near("special just below the band", frac(s, tt/2-tt/200, bandLo), 0.25*bell(tt/2-tt/200, bandLo), 0.001)
	near("special in the lowest fifth", frac(s, 0, tt/5), 0.25*bell(-tt, tt/5), 0.001)

	p := sample("pareto")
	// P(row < x·n) = x^(1/power): with h = 0.2, 80 % of the draws in the first 20 % of rows.
	power := math.Log(0.2) / math.Log(0.8)
	near("pareto below 0.2 n", frac(p, 0, 0.2*n), math.Pow(0.2, 1/power), 0.002)
	near("pareto below 0.01 n", frac(p, 0, 0.01*n), math.Pow(0.01, 1/power), 0.002)

	// zipfian over 1000 rows: P(row k−1) = k^−0.8 / Σ j^−0.8.
	zk, _ := NewKeys("zipfian", 1000)
	r := rand.New(rand.NewPCG(5, 6))
	counts := make([]float64, 1000)
	for i := 0; i < draws; i++ {
		counts[zk.Next(r)]++
	}
	var h float64
	for j := 1; j <= 1000; j++ {
		h += math.Pow(float64(j), -0.8)
	}
	for _, k := range []int{1, 2, 3, 10, 100, 1000} {
		want := math.Pow(float64(k), -0.8) / h
		sd := math.Sqrt(want * (1 - want) / draws)
		near("zipfian P(row "+strconv.Itoa(k-1)+")", counts[k-1]/draws, want, 5*sd)
	}
}

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
