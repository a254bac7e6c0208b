package config

import (
	"fmt"
	"strings"
	"unicode"
)

// Warnings are settings that are legal but almost certainly not what the user meant: a disk
// slower than a floppy, a DDL repeated a thousand times a second, a statement on a table an
// earlier statement dropped. The loader places each at the line that causes it and keeps
// them in Scenario.Warnings; the command line prints each once (docs/scenarios.md,
// "Warnings"). They never change what runs.

// Thresholds of the warnings.
const (
	// WarnBandwidth: a device below 1 MB/s (a 1990s floppy moves 0.06 MB/s, a 2010s HDD
	// 100 MB/s) is a bandwidth written in the wrong unit: bare numbers are bytes per second.
	WarnBandwidth Size = 1_000_000
	// WarnEvery: a DDL repeated more often than once a millisecond starts its next statement
	// before a real one could have parsed; it is a unit typo (1ns for 1s).
	WarnEvery = Millisecond
)

// Warning is a finding a kind's package makes about a scenario (Schema.Warners):
// the full path of the field it is about and the text.
type Warning struct{ Path, Msg string }

// warners are the installed Schema.Warners (guarded by shapeMu).
var warners []func(sc *Scenario) []Warning

func warnChecks(sc *Scenario) []verr {
	var out []verr
	add := func(path, msg string) { out = append(out, verr{path: path, msg: msg}) }
	shapeMu.RLock()
	ws := warners
	shapeMu.RUnlock()
	for _, w := range ws {
		for _, x := range w(sc) {
			add(x.Path, x.Msg)
		}
	}
	out = append(out, ignoredWarning(&sc.MySQL)...)
	hw := &sc.HardwareProfile
	for _, d := range []struct {
		name string
		dev  *Device
	}{{"data", &hw.Storage.Data}, {"log", &hw.Storage.Log}, {"temp", &hw.Storage.Temp}} {
		if bw := d.dev.Bandwidth; bw > 0 && bw < WarnBandwidth {
			add("hardware.storage."+d.name+".bandwidth", fmt.Sprintf(
				"%s bytes per second is under 1 MB/s: one 16 KiB page takes %.2g s to transfer. A bare number is bytes per second; did you mean %dMB?",
				groupDigits(int64(bw)), float64(16*KiB)/float64(bw), int64(bw)))
		}
	}
	for i, e := range sc.Schedule {
		if e.Every > 0 && e.Every < WarnEvery {
			add(fmt.Sprintf("schedule[%d].every", i), fmt.Sprintf(
				"%s between statements is under 1ms: the DDL starts again as soon as it ends, %s times over the run. Did you mean %ss?",
				e.Every, groupDigits(repetitions(e, sc.Duration)), strings.TrimRightFunc(e.Every.String(), unicode.IsLetter)))
		}
	}
	// A statement on a table an earlier statement removed (DROP TABLE, DISCARD TABLESPACE)
	// fails, in MySQL and in the simulation: legal, but rarely what was meant.
	removes := map[string]int{} // table name → the first schedule entry that removes it
	first := func(name string, i int) {
		if j, ok := removes[name]; !ok || sc.Schedule[i].At < sc.Schedule[j].At {
			removes[name] = i
		}
	}
	for i, d := range sc.Schedule {
		if k, ok := DDLKind(d.DDL); ok && k.Drops != "" {
			for _, name := range refTables(sc, d.Table, d.Each) {
				first(name, i)
			}
			if d.Every > 0 && repetitions(d, sc.Duration) > 1 {
				add(fmt.Sprintf("schedule[%d].every", i), fmt.Sprintf(
					"%s repeats, but the table is gone after the first statement: every repetition fails (%s)", d.DDL, k.Drops))
			}
		}
	}
	for j, e := range sc.Schedule {
		for _, name := range refTables(sc, e.Table, e.Each) {
			i, ok := removes[name]
			if !ok || i == j {
				continue
			}
			d := sc.Schedule[i]
			if d.At > e.At || (d.At == e.At && i > j) {
				continue
			}
			k, _ := DDLKind(d.DDL)
			add(fmt.Sprintf("schedule[%d].table", j), fmt.Sprintf(
				"%s at %s is on %s, which schedule[%d] (%s at %s) removes before it: the statement fails (%s), in MySQL and in the simulation",
				e.DDL, e.At, name, i, d.DDL, d.At, k.Drops))
			break
		}
	}
	return out
}

// refTables lists the tables a DDL's table reference names (checkTableRef has accepted it).
func refTables(sc *Scenario, ref string, each bool) []string {
	if ref == "" {
		return nil
	}
	if g, n, ok := TableIndex(ref); ok {
		for i := range sc.Data {
			if names := TableNames(&sc.Data[i]); sc.Data[i].Name == g && n >= 1 && n <= len(names) {
				return names[n-1 : n]
			}
		}
		return nil
	}
	for i := range sc.Data {
		if t := &sc.Data[i]; t.Name == ref {
			names := TableNames(t)
			if !each {
				names = names[:1]
			}
			return names
		}
	}
	return []string{ref}
}

// warnings places sc's warnings in the files, sorted like errors.
func (l *loader) warnings(sc *Scenario) []*FieldError {
	var out Errors
	for _, w := range warnChecks(sc) {
		out = append(out, l.place(w))
	}
	return out.Sorted()
}
