package config

import (
	"errors"
	"fmt"
	"math"
	"math/big"
	"strconv"
	"strings"

	"gopkg.in/yaml.v3"
)

// Human units. Every unit type parses with exact rational arithmetic (math/big), so
// "1.5GiB" is exactly 1610612736 bytes and never 1610612735.9999 rounded; a value that is
// not a whole number of the base unit ("1.3k" bytes) is an error rather than silently
// truncated. String() always produces text that parses back to the identical value, which
// is what makes the canonical YAML (and so the configuration hash) stable.

// Size is a number of bytes.
//
// Accepted: a plain integer (bytes), or a number with a unit. KiB/MiB/GiB/TiB are binary;
// kB/KB/MB/GB/TB are decimal (SI); a bare K/M/G/T (either case) is binary, because that is
// what my.cnf means by innodb_buffer_pool_size=2G and users paste from my.cnf. B is bytes.
type Size int64

// Duration is virtual time in nanoseconds (the kernel's sim.Time unit).
//
// Accepted: a number with one of ns, us, µs, ms, s, m (minutes), h. A bare number is an
// error because "300" could mean seconds or milliseconds depending on which MySQL variable
// it came from; the single exception is 0, which is the same in every unit.
type Duration int64

// Count is a plain quantity (rows, transactions). Accepted: an integer, optionally with
// k/K (thousand), M (million) or B (billion) and a decimal fraction ("2.5k").
type Count int64

type unit struct {
	suffix string
	mult   int64
}

// Formatting picks the first unit that divides the value exactly, so the lists run from the
// largest multiplier down: 2e9 bytes prints as "2GB" rather than "1953125KiB", and 48GiB as
// "48GiB". Parsing looks suffixes up exactly.
var (
	sizeFormatUnits = []unit{
		{"TiB", 1 << 40}, {"TB", 1e12}, {"GiB", 1 << 30}, {"GB", 1e9},
		{"MiB", 1 << 20}, {"MB", 1e6}, {"KiB", 1 << 10}, {"kB", 1e3},
	}
	sizeParseUnits = map[string]int64{
		"": 1, "B": 1,
		"K": 1 << 10, "k": 1 << 10, "M": 1 << 20, "m": 1 << 20, "G": 1 << 30, "g": 1 << 30, "T": 1 << 40, "t": 1 << 40,
		"KiB": 1 << 10, "MiB": 1 << 20, "GiB": 1 << 30, "TiB": 1 << 40,
		"kB": 1e3, "KB": 1e3, "MB": 1e6, "GB": 1e9, "TB": 1e12,
	}
	durationParseUnits = map[string]int64{
		"ns": 1, "us": 1e3, "µs": 1e3, "μs": 1e3, "ms": 1e6, "s": 1e9, "m": 60e9, "h": 3600e9,
	}
	countFormatUnits = []unit{{"B", 1e9}, {"M", 1e6}, {"k", 1e3}}
	countParseUnits  = map[string]int64{"": 1, "k": 1e3, "K": 1e3, "M": 1e6, "B": 1e9}
)

// SizeSyntax, DurationSyntax and CountSyntax describe the accepted forms; they are the
// "expected ..." part of error messages.
const (
	SizeSyntax     = "a size such as 16KiB, 600MB, 48GiB, 2G (my.cnf style, binary) or a byte count"
	DurationSyntax = "a duration with a unit such as 100ns, 500us, 1.5ms, 300s, 2m, 1h"
	CountSyntax    = "a count such as 1000, 2.5k, 10M or 8B (billion)"
)

var errSyntax = errors.New("syntax")

// splitNumber splits "1.5GiB" into an exact rational 1.5 and the suffix "GiB". Only
// [-+]digits[.digits] is a number: no exponents (they would let a fuzzer ask big.Rat for
// 10^999999999) and no hex.
func splitNumber(s string) (*big.Rat, string, error) {
	if len(s) == 0 || len(s) > 64 {
		return nil, "", errSyntax
	}
	i := 0
	if s[0] == '-' || s[0] == '+' {
		i++
	}
	digits, dot := 0, false
	for ; i < len(s); i++ {
		c := s[i]
		if c >= '0' && c <= '9' {
			digits++
			continue
		}
		if c == '.' && !dot {
			dot = true
			continue
		}
		break
	}
	if digits == 0 {
		return nil, "", errSyntax
	}
	num, suffix := s[:i], strings.TrimPrefix(s[i:], " ")
	r, ok := new(big.Rat).SetString(num)
	if !ok {
		return nil, "", errSyntax
	}
	return r, suffix, nil
}

var (
	minInt64 = big.NewInt(math.MinInt64)
	maxInt64 = big.NewInt(math.MaxInt64)
)

// scale multiplies r by mult and requires an int64 result.
func scale(r *big.Rat, mult int64, what string) (int64, error) {
	r = new(big.Rat).Mul(r, new(big.Rat).SetInt64(mult))
	if !r.IsInt() {
		return 0, fmt.Errorf("not a whole number of %s", what)
	}
	n := r.Num()
	if n.Cmp(minInt64) < 0 || n.Cmp(maxInt64) > 0 {
		return 0, errors.New("out of range")
	}
	return n.Int64(), nil
}

// ParseSize parses a Size; see the type's documentation for the syntax.
func ParseSize(s string) (Size, error) {
	r, suf, err := splitNumber(strings.TrimSpace(s))
	if err != nil {
		return 0, fmt.Errorf("expected %s", SizeSyntax)
	}
	mult, ok := sizeParseUnits[suf]
	if !ok {
		return 0, fmt.Errorf("unknown size unit %q: expected %s", suf, SizeSyntax)
	}
	n, err := scale(r, mult, "bytes")
	if err != nil {
		return 0, fmt.Errorf("%v: expected %s", err, SizeSyntax)
	}
	return Size(n), nil
}

// ParseDuration parses a Duration; see the type's documentation for the syntax.
func ParseDuration(s string) (Duration, error) {
	s = strings.TrimSpace(s)
	r, suf, err := splitNumber(s)
	if err != nil {
		return 0, fmt.Errorf("expected %s", DurationSyntax)
	}
	if suf == "" {
		if r.Sign() == 0 {
			return 0, nil
		}
		return 0, fmt.Errorf("missing unit: expected %s", DurationSyntax)
	}
	mult, ok := durationParseUnits[suf]
	if !ok {
		return 0, fmt.Errorf("unknown duration unit %q: expected %s", suf, DurationSyntax)
	}
	n, err := scale(r, mult, "nanoseconds")
	if err != nil {
		return 0, fmt.Errorf("%v: expected %s", err, DurationSyntax)
	}
	return Duration(n), nil
}

// ParseCount parses a Count; see the type's documentation for the syntax.
func ParseCount(s string) (Count, error) {
	r, suf, err := splitNumber(strings.TrimSpace(s))
	if err != nil {
		return 0, fmt.Errorf("expected %s", CountSyntax)
	}
	mult, ok := countParseUnits[suf]
	if !ok {
		return 0, fmt.Errorf("unknown count suffix %q: expected %s", suf, CountSyntax)
	}
	n, err := scale(r, mult, "units")
	if err != nil {
		return 0, fmt.Errorf("%v: expected %s", err, CountSyntax)
	}
	return Count(n), nil
}

// formatExact prints n as the largest unit that divides it exactly, else as a plain
// integer. Works on the magnitude as uint64 so math.MinInt64 formats too.
func formatExact(n int64, units []unit, plainSuffix string) string {
	sign, mag := "", uint64(n)
	if n < 0 {
		sign, mag = "-", -uint64(n)
	}
	if mag != 0 {
		for _, u := range units {
			if mag%uint64(u.mult) == 0 {
				return sign + strconv.FormatUint(mag/uint64(u.mult), 10) + u.suffix
			}
		}
	}
	return sign + strconv.FormatUint(mag, 10) + plainSuffix
}

// String returns the canonical form, e.g. "48GiB", "600MB", "123".
func (s Size) String() string { return formatExact(int64(s), sizeFormatUnits, "") }

// String returns the canonical form: whole hours or minutes when exact ("2h", "5m"),
// otherwise a decimal number of the largest of s, ms, us, ns that is not larger than the
// value ("1.5ms", "3723s"). Decimal fractions of a second are always exact in nanoseconds,
// fractions of an hour are not, which is why h and m are used only when exact.
func (d Duration) String() string {
	sign, mag := "", uint64(d)
	if d < 0 {
		sign, mag = "-", -uint64(d)
	}
	switch {
	case mag == 0:
		return "0s"
	case mag%3600e9 == 0:
		return sign + strconv.FormatUint(mag/3600e9, 10) + "h"
	case mag%60e9 == 0:
		return sign + strconv.FormatUint(mag/60e9, 10) + "m"
	case mag >= 1e9:
		return sign + decimal(mag, 1e9, 9) + "s"
	case mag >= 1e6:
		return sign + decimal(mag, 1e6, 6) + "ms"
	case mag >= 1e3:
		return sign + decimal(mag, 1e3, 3) + "us"
	}
	return sign + strconv.FormatUint(mag, 10) + "ns"
}

// decimal prints mag/div with the fraction's trailing zeros trimmed.
func decimal(mag, div uint64, digits int) string {
	whole, frac := mag/div, mag%div
	if frac == 0 {
		return strconv.FormatUint(whole, 10)
	}
	f := fmt.Sprintf("%0*d", digits, frac)
	return strconv.FormatUint(whole, 10) + "." + strings.TrimRight(f, "0")
}

// Seconds returns d in seconds (for reports; never for simulation arithmetic).
func (d Duration) Seconds() float64 { return float64(d) / 1e9 }

// String returns the canonical form, e.g. "10M", "8B", "2500".
func (c Count) String() string { return formatExact(int64(c), countFormatUnits, "") }

// scalarValue returns a scalar node's text or an error naming what was found instead.
func scalarValue(n *yaml.Node, expected string) (string, error) {
	if n.Kind != yaml.ScalarNode {
		return "", fmt.Errorf("found a %s: expected %s", kindName(n), expected)
	}
	return n.Value, nil
}

// UnmarshalYAML implements yaml.Unmarshaler.
func (s *Size) UnmarshalYAML(n *yaml.Node) error {
	v, err := scalarValue(n, SizeSyntax)
	if err != nil {
		return err
	}
	*s, err = ParseSize(v)
	return err
}

// UnmarshalYAML implements yaml.Unmarshaler.
func (d *Duration) UnmarshalYAML(n *yaml.Node) error {
	v, err := scalarValue(n, DurationSyntax)
	if err != nil {
		return err
	}
	*d, err = ParseDuration(v)
	return err
}

// UnmarshalYAML implements yaml.Unmarshaler.
func (c *Count) UnmarshalYAML(n *yaml.Node) error {
	v, err := scalarValue(n, CountSyntax)
	if err != nil {
		return err
	}
	*c, err = ParseCount(v)
	return err
}

// MarshalYAML implements yaml.Marshaler. Plain byte counts stay integers in YAML.
func (s Size) MarshalYAML() (any, error) { return plainScalar(s.String()), nil }

// MarshalYAML implements yaml.Marshaler.
func (d Duration) MarshalYAML() (any, error) { return plainScalar(d.String()), nil }

// MarshalYAML implements yaml.Marshaler.
func (c Count) MarshalYAML() (any, error) { return plainScalar(c.String()), nil }

// plainScalar emits text unquoted: "48GiB" and "123" both read back through our parsers,
// and quoting "123" would only make the canonical YAML noisier.
func plainScalar(s string) *yaml.Node {
	return &yaml.Node{Kind: yaml.ScalarNode, Value: s}
}

func kindName(n *yaml.Node) string {
	switch n.Kind {
	case yaml.MappingNode:
		return "mapping"
	case yaml.SequenceNode:
		return "list"
	case yaml.ScalarNode:
		if n.Tag == "!!null" {
			return "null"
		}
		return "scalar"
	case yaml.AliasNode:
		return "alias"
	}
	return "document"
}
