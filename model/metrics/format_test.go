package metrics

import (
	"math"
	"testing"
)

// One number format everywhere: plain notation (no exponent), NaN empty in CSV and null in
// JSON, infinities +Inf/-Inf in CSV and null in JSON (internal/output's TestOneNumberFormat
// checks the files).
func TestFormatFloat(t *testing.T) {
	for v, want := range map[float64]string{
		143500.5: "143500.5", 2e6: "2000000", 2.5e-7: "0.00000025", 1e21: "1000000000000000000000",
		math.Copysign(0, -1): "0", -3.25: "-3.25", math.NaN(): "", math.Inf(1): "+Inf", math.Inf(-1): "-Inf",
	} {
		if got := FormatFloat(v); got != want {
			t.Errorf("FormatFloat(%v) = %q, want %q", v, got, want)
		}
	}
	for _, v := range []float64{math.NaN(), math.Inf(1), math.Inf(-1)} {
		if got := JSONFloat(v); got != "null" {
			t.Errorf("JSONFloat(%v) = %q", v, got)
		}
	}
}

func TestWithin(t *testing.T) {
	ph := []Phase{{"merge", 0, 4}, {"merge_pass_1", 0, 2}, {"merge_pass_2", 2, 4}, {"load", 4, 5}, {"row_log_apply", 5, 5}, {"observer_flush", 5, 7}}
	got := Within(ph)
	want := []bool{false, true, true, false, false, false}
	for i := range want {
		if got[i] != want[i] {
			t.Errorf("%s: within %v, want %v", ph[i].Name, got[i], want[i])
		}
	}
}
