package metrics

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math"
	"reflect"
	"strconv"
	"strings"
)

// FormatFloat is the one float format of every CSV file ddlsim writes (run directories,
// sweep and compare results, validation tables' data): plain decimal notation with the
// shortest digits that parse back to the same float64, so files are stable byte for byte,
// lose nothing, and never hold exponent notation (143500.5 and 2000000, not 1.435005e+05 or
// 2e+06; 0.00000025, not 2.5e-07). Negative zero is written 0. NaN, "no value", is an empty
// field; infinities are +Inf and -Inf (which Go's strconv, pandas and R all read back).
func FormatFloat(v float64) string {
	switch {
	case math.IsNaN(v):
		return ""
	case math.IsInf(v, 1):
		return "+Inf"
	case math.IsInf(v, -1):
		return "-Inf"
	case v == 0:
		return "0"
	}
	return strconv.FormatFloat(v, 'f', -1, 64)
}

// JSONFloat is FormatFloat for JSON: the same digits, and null for NaN and for the
// infinities (JSON has no spelling for them; readers, pandas included, take null as missing).
func JSONFloat(v float64) string {
	if math.IsNaN(v) || math.IsInf(v, 0) {
		return "null"
	}
	return FormatFloat(v)
}

// MarshalJSON writes a DDL result with JSONFloat's numbers (encoding/json would use exponent
// notation below 1e-6 and refuse NaN), fields in declaration order.
func (d DDLResult) MarshalJSON() ([]byte, error) {
	var b bytes.Buffer
	err := encodeJSON(&b, reflect.ValueOf(d))
	return b.Bytes(), err
}

// MarshalJSON writes a phase with JSONFloat's numbers.
func (p Phase) MarshalJSON() ([]byte, error) {
	var b bytes.Buffer
	err := encodeJSON(&b, reflect.ValueOf(p))
	return b.Bytes(), err
}

// UnmarshalJSON reads a DDL result; a float written as null (or absent) reads back as NaN.
func (d *DDLResult) UnmarshalJSON(data []byte) error {
	type plain DDLResult // without this method
	x := plain{}
	v := reflect.ValueOf(&x).Elem()
	for i := 0; i < v.NumField(); i++ {
		if f := v.Field(i); f.Kind() == reflect.Float64 {
			f.SetFloat(math.NaN()) // encoding/json leaves a float alone on null
		}
	}
	if err := json.Unmarshal(data, &x); err != nil {
		return err
	}
	*d = DDLResult(x)
	return nil
}

// MarshalJSON writes latency harm with JSONFloat's numbers.
func (h LatencyHarm) MarshalJSON() ([]byte, error) {
	var b bytes.Buffer
	err := encodeJSON(&b, reflect.ValueOf(h))
	return b.Bytes(), err
}

// UnmarshalJSON reads latency harm; a float written as null (or absent) reads back as NaN.
func (h *LatencyHarm) UnmarshalJSON(data []byte) error {
	type plain LatencyHarm
	x := plain{}
	v := reflect.ValueOf(&x).Elem()
	for i := 0; i < v.NumField(); i++ {
		if f := v.Field(i); f.Kind() == reflect.Float64 {
			f.SetFloat(math.NaN())
		}
	}
	if err := json.Unmarshal(data, &x); err != nil {
		return err
	}
	*h = LatencyHarm(x)
	return nil
}

// encodeJSON writes v as JSON the way encoding/json would with the fields' json tags, except
// that floats are JSONFloat's. It knows the kinds the result types use.
func encodeJSON(b *bytes.Buffer, v reflect.Value) error {
	switch v.Kind() {
	case reflect.Float32, reflect.Float64:
		b.WriteString(JSONFloat(v.Float()))
	case reflect.Bool:
		b.WriteString(strconv.FormatBool(v.Bool()))
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		b.WriteString(strconv.FormatInt(v.Int(), 10))
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		b.WriteString(strconv.FormatUint(v.Uint(), 10))
	case reflect.String:
		b.WriteString(quote(v.String()))
	case reflect.Pointer:
		if v.IsNil() {
			b.WriteString("null")
			return nil
		}
		return encodeJSON(b, v.Elem())
	case reflect.Slice:
		if v.IsNil() {
			b.WriteString("null")
			return nil
		}
		b.WriteByte('[')
		for i := 0; i < v.Len(); i++ {
			if i > 0 {
				b.WriteByte(',')
			}
			if err := encodeJSON(b, v.Index(i)); err != nil {
				return err
			}
		}
		b.WriteByte(']')
	case reflect.Struct:
		t := v.Type()
		b.WriteByte('{')
		first := true
		for i := 0; i < t.NumField(); i++ {
			name, opts, _ := strings.Cut(t.Field(i).Tag.Get("json"), ",")
			if name == "-" || !t.Field(i).IsExported() {
				continue
			}
			if name == "" {
				name = t.Field(i).Name
			}
			if opts == "omitempty" && v.Field(i).IsZero() {
				continue
			}
			if !first {
				b.WriteByte(',')
			}
			first = false
			b.WriteString(quote(name) + ":")
			if err := encodeJSON(b, v.Field(i)); err != nil {
				return err
			}
		}
		b.WriteByte('}')
	default:
		return fmt.Errorf("metrics: cannot encode %s as JSON", v.Type())
	}
	return nil
}

// PhaseTotals lists a statement's phase names in order of first appearance with each one's
// total time in seconds over all its occurrences (observer_flush once per index and once at
// the end, wait_mdl once per stage that waited).
func PhaseTotals(ph []Phase) (names []string, total map[string]float64) {
	total = map[string]float64{}
	for _, p := range ph {
		if _, ok := total[p.Name]; !ok {
			names = append(names, p.Name)
		}
		total[p.Name] += p.EndS - p.StartS
	}
	return names, total
}

// PhaseList spells every phase occurrence in order, "name=seconds" separated by spaces
// (ddl.csv's phases column): nothing repeated is collapsed.
func PhaseList(ph []Phase) string {
	parts := make([]string, len(ph))
	for i, p := range ph {
		parts[i] = p.Name + "=" + FormatFloat(p.EndS-p.StartS)
	}
	return strings.Join(parts, " ")
}

// Within reports, per phase, whether it lies inside another, longer phase of the statement:
// merge_pass_N inside merge (a pass is part of the merge), or a phase inside a concurrent
// index's longer one. The phases not within another follow each other: their durations add up
// to the statement's (docs/output.md). A phase of zero length is never within another.
func Within(ph []Phase) []bool {
	out := make([]bool, len(ph))
	for j, q := range ph {
		lq := q.EndS - q.StartS
		if lq <= 0 {
			continue
		}
		for i, p := range ph {
			if i != j && p.EndS-p.StartS > lq && p.StartS <= q.StartS && q.EndS <= p.EndS {
				out[j] = true
				break
			}
		}
	}
	return out
}

func quote(s string) string {
	b, _ := json.Marshal(s)
	return string(b)
}
