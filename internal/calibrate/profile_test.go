package calibrate

import (
	"math"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/ddlsim/ddlsim/model/config"
)

// The lab's committed profiles say what they are: lab-2c carries 8c-64g's four foreground
// costs over unfitted, and lab-2c-calibrated holds exactly lab-2c's four x the scale its
// provenance names, with lab-2c as its base. Editing lab-2c's costs, or
// the calibrated file by hand, without re-running `ddlsim calibrate` (scenarios/lab/roundtrip.sh
// re-makes it and compares the whole fit) breaks one of these.
func TestLabProfileIsCalibratesOutput(t *testing.T) {
	load := func(p string) *config.Hardware {
		hw, err := config.LoadHardware("../../scenarios/profiles/" + p)
		if err != nil {
			t.Fatal(err)
		}
		return hw
	}
	base, lab, cal := load("8c-64g.yaml"), load("lab-2c.yaml"), load("lab-2c-calibrated.yaml")
	four := func(c config.Costs) [4]config.Duration {
		return [4]config.Duration{c.PageHit, c.Row, c.Statement, c.Commit}
	}
	if four(lab.Costs) != four(base.Costs) {
		t.Errorf("lab-2c's page_hit, row, statement, commit %v: want 8c-64g's %v, carried over unfitted", four(lab.Costs), four(base.Costs))
	}
	for _, p := range lab.Provenance {
		for _, n := range []string{"costs.page_hit", "costs.row", "costs.statement", "costs.commit"} {
			if p.Name == n && (p.Status != "assumed" || !strings.Contains(p.Source, "carried over from 8c-64g")) {
				t.Errorf("lab-2c's provenance of %s: %+v, want assumed, carried over from 8c-64g", n, p)
			}
		}
	}
	if len(cal.Provenance) != 4 {
		t.Fatalf("lab-2c-calibrated: %d provenance entries, want the 4 fitted", len(cal.Provenance))
	}
	m := regexp.MustCompile(`one scale s=([0-9.]+) on lab-2c's`).FindStringSubmatch(cal.Provenance[0].On)
	if m == nil {
		t.Fatalf("lab-2c-calibrated's provenance names no scale: %q", cal.Provenance[0].On)
	}
	// The provenance prints s to 4 decimals: each cost is lab-2c's x s within that rounding
	// (half a unit of the 4th decimal) and the nanosecond scaled rounds to.
	s, _ := strconv.ParseFloat(m[1], 64)
	got, want := four(cal.Costs), four(scaled(lab.Costs, s))
	for i, b := range four(lab.Costs) {
		if d := math.Abs(float64(got[i] - want[i])); d > 0.00005*float64(b)+1 {
			t.Errorf("lab-2c-calibrated's costs %v: want lab-2c's x %s = %v", got, m[1], want)
			break
		}
	}
	if cal.Costs.ListNode != lab.Costs.ListNode || cal.Cores != lab.Cores {
		t.Errorf("lab-2c-calibrated does not take the rest from lab-2c")
	}
}
