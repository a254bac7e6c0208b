package validate

import (
	"fmt"
	"path/filepath"
	"reflect"
	"sort"
	"strings"

	"github.com/ddlsim/ddlsim/model/config"
	"gopkg.in/yaml.v3"
)

// constants gathers the provenance tables of the profiles the files use, in order of first
// use, with each entry's value read from the profile.
func constants(sfs []*scenarioFile, root string) ([]Profile, error) {
	var out []Profile
	seen := map[string]bool{}
	for _, sf := range sfs {
		hw := &sf.sc.HardwareProfile
		if seen[hw.Name] || len(hw.Provenance) == 0 {
			continue
		}
		seen[hw.Name] = true
		file := ""
		if sf.sc.Hardware.Path != "" {
			file = rel(root, filepath.Join(filepath.Dir(sf.path), sf.sc.Hardware.Path))
		}
		p, err := table(hw, file)
		if err != nil {
			return nil, err
		}
		out = append(out, p)
		// A profile built on another (base:) declares only its own values' provenance: the
		// bases' tables follow it, with the bases' own values, so every constant the runs
		// use has its source in the doc.
		for _, f := range baseFiles(sf.sc) {
			bhw, err := config.LoadHardware(f)
			if err != nil {
				return nil, fmt.Errorf("profile %s: its base %s: %v", hw.Name, f, err)
			}
			if seen[bhw.Name] || len(bhw.Provenance) == 0 {
				continue
			}
			seen[bhw.Name] = true
			bp, err := table(bhw, rel(root, f))
			if err != nil {
				return nil, err
			}
			out = append(out, bp)
		}
	}
	return out, nil
}

// table is one profile's provenance table, each entry with the profile's value.
func table(hw *config.Hardware, file string) (Profile, error) {
	p := Profile{Name: hw.Name, File: file}
	for _, e := range hw.Provenance {
		v, err := fieldValue(hw, e.Name)
		if err != nil {
			return p, fmt.Errorf("profile %s: %v", hw.Name, err)
		}
		p.Entries = append(p.Entries, Constant{Name: e.Name, Value: v, Status: e.Status, On: e.On, Source: e.Source})
	}
	return p, nil
}

// baseFiles are the files the scenario's profile took values from besides its own (its
// base: chain), sorted: where the loader says each hardware value was written.
func baseFiles(sc *config.Scenario) []string {
	own, scen := sc.Origins["hardware"].File, sc.Origins[""].File
	seen := map[string]bool{}
	var out []string
	for k, pos := range sc.Origins {
		if !strings.HasPrefix(k, "hardware.") || pos.File == own || pos.File == scen || pos.File == "--set" || pos.File == "" || seen[pos.File] {
			continue
		}
		seen[pos.File] = true
		out = append(out, pos.File)
	}
	sort.Strings(out)
	return out
}

// fieldValue is the canonical YAML text of a hardware field given by its dotted path.
func fieldValue(hw *config.Hardware, path string) (string, error) {
	v := reflect.ValueOf(hw).Elem()
	for _, seg := range strings.Split(path, ".") {
		if v.Kind() != reflect.Struct {
			return "", fmt.Errorf("%s: not a field", path)
		}
		found := false
		for i := 0; i < v.NumField(); i++ {
			tag, _, _ := strings.Cut(v.Type().Field(i).Tag.Get("yaml"), ",")
			if tag == seg {
				v, found = v.Field(i), true
				break
			}
		}
		if !found {
			return "", fmt.Errorf("%s: not a field", path)
		}
	}
	b, err := yaml.Marshal(v.Interface())
	if err != nil {
		return "", err
	}
	s := strings.TrimSpace(string(b))
	if strings.Contains(s, "\n") { // a mapping (a distribution, a client block): one line
		var m any
		if yaml.Unmarshal(b, &m) == nil {
			s = strings.ReplaceAll(fmt.Sprint(m), "map", "")
		}
	}
	return s, nil
}
