package main

import (
	"regexp"
	"strconv"
	"testing"
)

// The quickstart's comment promises that its DROP visibly moves the traffic under fullscan
// and not under indexed (issue 16): the interval after the DROP against the one before it.
func TestQuickstartShowsTheDDL(t *testing.T) {
	if testing.Short() {
		t.Skip("two 15 s runs")
	}
	line := regexp.MustCompile(`(?m)^\[ (\d+)s \].* iud/s: (\d+) lat \(ms,95%\): ([0-9.]+)`)
	for _, c := range []struct {
		policy string
		moved  bool
	}{{"fullscan", true}, {"indexed", false}} {
		out, stderr, code := ddlsim(t, "run", "--policy", c.policy, "../../scenarios/quickstart.yaml")
		if code != 0 {
			t.Fatalf("%s: exit %d\n%s", c.policy, code, stderr)
		}
		iud, p95 := map[int]float64{}, map[int]float64{}
		for _, m := range line.FindAllStringSubmatch(out, -1) {
			s, _ := strconv.Atoi(m[1])
			iud[s], _ = strconv.ParseFloat(m[2], 64)
			p95[s], _ = strconv.ParseFloat(m[3], 64)
		}
		// The DROP runs at 5 s: the [6s] line is the second it runs in, [4s] a second before.
		dip, slow := iud[6]/iud[4], p95[6]/p95[4]
		if moved := dip < 0.8 && slow > 2; moved != c.moved {
			t.Errorf("%s: iud/s %v -> %v (x%.2f), p95 %v -> %v ms (x%.2f); want moved=%v", c.policy, iud[4], iud[6], dip, p95[4], p95[6], slow, c.moved)
		}
	}
}
