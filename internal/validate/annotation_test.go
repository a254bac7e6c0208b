package validate

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// A validation file is decoded as strictly as a scenario, and its own rules are enforced:
// every problem reported at once, at its line.
func TestLoadAnnotation(t *testing.T) {
	dir := t.TempDir()
	write := func(name, text string) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	good := write("good.yaml", `
scenario: ../x.yaml
validation:
  table: t
  points:
    - label: a
      role: fit
      compare:
        - {stat: tps_mean, measured: 1, source: s, fits: costs.statement}
        - {stat: hit_ratio_mean, source: s, role: report}
`)
	a, err := LoadAnnotation(good)
	if err != nil {
		t.Fatal(err)
	}
	if a.Scenario != filepath.Join(dir, "../x.yaml") || len(a.Validation.Points[0].Compare) != 2 ||
		*a.Validation.Points[0].Compare[0].Measured != 1 || a.Validation.Points[0].Compare[1].Measured != nil {
		t.Errorf("decoded %+v", a)
	}
	bad := write("bad.yaml", `
validation:
  table: t
  points:
    - label: a
      role: guess
      set: [nonsense]
      compare:
        - {stat: tps_mean, measured: 1, source: s, bound: above}
        - {stat: tps_mean, source: s}
        - {stat: tps_mean, measured: 1, source: s, role: fit}
        - {stat: x, measued: 2, source: s}
    - label: a
      role: predict
      compare: []
`)
	_, err = LoadAnnotation(bad)
	if err == nil {
		t.Fatal("bad.yaml loaded")
	}
	msg := err.Error()
	for _, want := range []string{
		"measued: unknown field (did you mean measured?)",
	} {
		if !strings.Contains(msg, want) {
			t.Errorf("missing %q in:\n%s", want, msg)
		}
	}
	// Without the decoding error the rules are judged, all of them.
	bad2 := write("bad2.yaml", strings.Replace(string(must(os.ReadFile(bad))), "measued", "measured", 1))
	_, err = LoadAnnotation(bad2)
	if err == nil {
		t.Fatal("bad2.yaml loaded")
	}
	msg = err.Error()
	for _, want := range []string{
		"bad2.yaml: scenario: missing",
		`bad2.yaml:6:13: validation.points[0].role: bad value "guess": expected one of fit, predict, check, report`,
		`points[0].set[0]: bad value "nonsense": expected path=value`,
		`points[0].compare[0].bound: bad value "above"`,
		"compare[1].measured: a value needs measured unless its role is report",
		"compare[2].fits: missing",
		`points[1].label: bad value "a": duplicate label "a"`,
		"points[1].compare: missing",
	} {
		if !strings.Contains(msg, want) {
			t.Errorf("missing %q in:\n%s", want, msg)
		}
	}
}

func must(b []byte, err error) []byte {
	if err != nil {
		panic(err)
	}
	return b
}
