package config

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"reflect"
	"regexp"

	"gopkg.in/yaml.v3"
)

// Marshal returns the canonical YAML of the effective configuration: defaults applied, the
// hardware profile inline (so the text alone reproduces the run, wherever the profile file
// lives), the seed included, fields in schema order, units in their canonical spelling. It
// loads back to an identical scenario.
func Marshal(sc *Scenario) ([]byte, error) {
	b, err := marshal(sc)
	if err != nil {
		return nil, err
	}
	return unsetRowSize.ReplaceAll(b, nil), nil
}

// unsetRowSize is a data group's row_size line when it is unset (0: the table kind's own
// row). Marshal leaves it out, since a written row_size: 0 is refused (writtenZeros); the
// hash is over the text with it, as it always was, so no configuration hash changed.
var unsetRowSize = regexp.MustCompile(`(?m)^ +row_size: 0\n`)

// marshal is the canonical YAML Hash is taken over.
func marshal(sc *Scenario) ([]byte, error) {
	c := *sc
	hw := sc.HardwareProfile
	if reflect.ValueOf(hw).IsZero() && sc.Hardware.Inline != nil {
		hw = *sc.Hardware.Inline // built in code rather than loaded
	}
	// The provenance table describes the profile; it does not change what is simulated.
	hw.Provenance = nil
	c.Hardware = HardwareRef{Inline: &hw}
	var buf bytes.Buffer
	enc := yaml.NewEncoder(&buf)
	enc.SetIndent(2)
	if err := enc.Encode(&c); err != nil {
		return nil, err
	}
	if err := enc.Close(); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}

// Hash identifies an effective configuration: the first 16 hex digits of the SHA-256 of
// Marshal's output (with an unset row_size written as 0, as it was before Marshal left it out). Two runs with the same hash simulate the same thing; the profile's file
// name and comments in the scenario do not count, every value does.
func Hash(sc *Scenario) string {
	// What the real server did and whether the data is its whole working set describe the
	// scenario; they do not change what is simulated, so they do not count.
	c := *sc
	c.Observed, c.Warm.WholeWorkingSet = Observed{}, false
	b, err := marshal(&c)
	if err != nil {
		// Every schema type marshals; failing here means the schema gained one that does not.
		panic("config: cannot marshal scenario: " + err.Error())
	}
	sum := sha256.Sum256(b)
	return hex.EncodeToString(sum[:])[:16]
}
