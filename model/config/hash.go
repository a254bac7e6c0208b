package config

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"reflect"

	"gopkg.in/yaml.v3"
)

// Marshal returns the canonical YAML of the effective configuration: defaults applied, the
// hardware profile inline (so the text alone reproduces the run, wherever the profile file
// lives), the seed included, fields in schema order, units in their canonical spelling. It
// loads back to an identical scenario.
func Marshal(sc *Scenario) ([]byte, error) {
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
// Marshal's output. Two runs with the same hash simulate the same thing; the profile's file
// name and comments in the scenario do not count, every value does.
func Hash(sc *Scenario) string {
	b, err := Marshal(sc)
	if err != nil {
		// Every schema type marshals; failing here means the schema gained one that does not.
		panic("config: cannot marshal scenario: " + err.Error())
	}
	sum := sha256.Sum256(b)
	return hex.EncodeToString(sum[:])[:16]
}
