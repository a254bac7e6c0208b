package config

import (
	"math"
	"strings"
	"testing"

	"gopkg.in/yaml.v3"
)

func TestParseSize(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want Size
	}{
		{"123", 123},
		{"0", 0},
		{"48GiB", 48 << 30},
		{"600MB", 600e6},
		{"16KiB", 16 << 10},
		{"1.5GiB", 3 << 29},
		{"2G", 2 << 30}, // my.cnf: binary
		{"32M", 32 << 20},
		{"1k", 1024},
		{"1K", 1024},
		{"2GB", 2e9},
		{"1kB", 1000},
		{"1KB", 1000},
		{"1TiB", 1 << 40},
		{"1T", 1 << 40},
		{"5B", 5},
		{"48 GiB", 48 << 30},
		{"-4GiB", -4 << 30},
		{" 7 ", 7},
	} {
		got, err := ParseSize(tc.in)
		if err != nil || got != tc.want {
			t.Errorf("ParseSize(%q) = %d, %v; want %d", tc.in, got, err, tc.want)
		}
	}
	for _, bad := range []string{"", "GiB", "1.3k", "12 parsecs", "1e9", "0x10", "1..5M", "1Gib", "9999999999TiB", "1.5", "--1"} {
		if got, err := ParseSize(bad); err == nil {
			t.Errorf("ParseSize(%q) = %d, want error", bad, got)
		}
	}
}

func TestParseDuration(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want Duration
	}{
		{"500us", 500 * Microsecond},
		{"500µs", 500 * Microsecond},
		{"1.5ms", 1500 * Microsecond},
		{"300s", 300 * Second},
		{"2m", 2 * Minute},
		{"1h", 60 * Minute},
		{"100ns", 100},
		{"0", 0},
		{"0.000000001s", 1},
		{"-5s", -5 * Second},
	} {
		got, err := ParseDuration(tc.in)
		if err != nil || got != tc.want {
			t.Errorf("ParseDuration(%q) = %d, %v; want %d", tc.in, got, err, tc.want)
		}
	}
	for _, bad := range []string{"300", "1.5", "", "s", "5 parsecs", "0.5ns", "1d", "1h30m", "99999999999h"} {
		if got, err := ParseDuration(bad); err == nil {
			t.Errorf("ParseDuration(%q) = %d, want error", bad, got)
		}
	}
	if _, err := ParseDuration("300"); err == nil || !strings.Contains(err.Error(), "missing unit") {
		t.Errorf("bare number: got %v, want a missing-unit error", err)
	}
}

func TestParseCount(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want Count
	}{
		{"10M", 10e6}, {"8B", 8e9}, {"2.5k", 2500}, {"1500", 1500}, {"1K", 1000}, {"0", 0},
	} {
		got, err := ParseCount(tc.in)
		if err != nil || got != tc.want {
			t.Errorf("ParseCount(%q) = %d, %v; want %d", tc.in, got, err, tc.want)
		}
	}
	for _, bad := range []string{"", "1.0001k", "10 rows", "1G", "M"} {
		if got, err := ParseCount(bad); err == nil {
			t.Errorf("ParseCount(%q) = %d, want error", bad, got)
		}
	}
}

func TestFormat(t *testing.T) {
	for _, tc := range []struct {
		got, want string
	}{
		{Size(48 << 30).String(), "48GiB"},
		{Size(600e6).String(), "600MB"},
		{Size(2e9).String(), "2GB"},
		{Size(3 << 29).String(), "1536MiB"},
		{Size(123).String(), "123"},
		{Size(0).String(), "0"},
		{Size(-16 << 10).String(), "-16KiB"},
		{Duration(0).String(), "0s"},
		{(1500 * Microsecond).String(), "1.5ms"},
		{(300 * Second).String(), "5m"},
		{(3723 * Second).String(), "3723s"},
		{(90 * Second).String(), "90s"},
		{(2 * 60 * Minute).String(), "2h"},
		{Duration(100).String(), "100ns"},
		{Duration(1001).String(), "1.001us"},
		{(-1500 * Millisecond).String(), "-1.5s"},
		{Count(10e6).String(), "10M"},
		{Count(8e9).String(), "8B"},
		{Count(2500).String(), "2500"},
	} {
		if tc.got != tc.want {
			t.Errorf("got %q, want %q", tc.got, tc.want)
		}
	}
}

func TestRoundTripExtremes(t *testing.T) {
	for _, n := range []int64{0, 1, -1, 999, 1 << 40, 1e12, math.MaxInt64, math.MinInt64, math.MinInt64 + 1, 123456789012345} {
		if got, err := ParseSize(Size(n).String()); err != nil || int64(got) != n {
			t.Errorf("Size %d: %q → %d, %v", n, Size(n).String(), got, err)
		}
		if got, err := ParseDuration(Duration(n).String()); err != nil || int64(got) != n {
			t.Errorf("Duration %d: %q → %d, %v", n, Duration(n).String(), got, err)
		}
		if got, err := ParseCount(Count(n).String()); err != nil || int64(got) != n {
			t.Errorf("Count %d: %q → %d, %v", n, Count(n).String(), got, err)
		}
	}
}

func TestUnitYAML(t *testing.T) {
	type doc struct {
		S Size          `yaml:"s"`
		D Duration      `yaml:"d"`
		C Count         `yaml:"c"`
		Q QuantilePoint `yaml:"q"`
	}
	in := doc{S: 48 * GiB, D: 1500 * Microsecond, C: 10e6,
		Q: QuantilePoint{Q: 0.99, Value: Millisecond}}
	b, err := yaml.Marshal(in)
	if err != nil {
		t.Fatal(err)
	}
	var out doc
	if err := yaml.Unmarshal(b, &out); err != nil {
		t.Fatalf("%v\n%s", err, b)
	}
	if out.S != in.S || out.D != in.D || out.C != in.C || out.Q != in.Q {
		t.Errorf("round trip through yaml.v3:\n%s\ngot %+v", b, out)
	}
	if err := yaml.Unmarshal([]byte("d: 300"), &out); err == nil {
		t.Error("bare duration accepted through yaml.Unmarshal")
	}
}

func fuzzUnit[T ~int64](f *testing.F, parse func(string) (T, error), format func(T) string) {
	for _, s := range []string{"48GiB", "1.5ms", "10M", "0", "-1", "2.5k", "1e9", "µs", "9223372036854775807", "1.", ".5"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		v, err := parse(s)
		if err != nil {
			return
		}
		text := format(v)
		back, err := parse(text)
		if err != nil || back != v {
			t.Fatalf("%q → %d → %q → %d, %v", s, v, text, back, err)
		}
	})
}

func FuzzParseSize(f *testing.F) {
	fuzzUnit(f, ParseSize, func(s Size) string { return s.String() })
}

func FuzzParseDuration(f *testing.F) {
	fuzzUnit(f, ParseDuration, func(d Duration) string { return d.String() })
}

func FuzzParseCount(f *testing.F) {
	fuzzUnit(f, ParseCount, func(c Count) string { return c.String() })
}
