package config

import (
	"os"
	"reflect"
	"sort"
	"strings"
	"testing"
)

// TestSchemaKeysDocumented: every YAML key of the scenario schema (and of the hardware
// profile, which a scenario inlines) appears in docs/scenarios.md as `key`, so a field added
// to the loader cannot stay undocumented (rebuild_row was, for a while).
func TestSchemaKeysDocumented(t *testing.T) {
	b, err := os.ReadFile("../../docs/scenarios.md")
	if err != nil {
		t.Fatal(err)
	}
	doc := string(b)
	keys := map[string]string{} // key -> the Go path it was found at
	seen := map[reflect.Type]bool{}
	var walk func(typ reflect.Type, path string)
	walk = func(typ reflect.Type, path string) {
		for typ.Kind() == reflect.Pointer || typ.Kind() == reflect.Slice || typ.Kind() == reflect.Array || typ.Kind() == reflect.Map {
			typ = typ.Elem()
		}
		if typ.Kind() != reflect.Struct || seen[typ] {
			return
		}
		seen[typ] = true
		for i := 0; i < typ.NumField(); i++ {
			f := typ.Field(i)
			tag := strings.Split(f.Tag.Get("yaml"), ",")[0]
			if tag == "-" || !f.IsExported() {
				continue
			}
			if tag == "" {
				if f.Anonymous {
					walk(f.Type, path)
				}
				continue
			}
			if _, ok := keys[tag]; !ok {
				keys[tag] = path + "." + f.Name
			}
			walk(f.Type, path+"."+f.Name)
		}
	}
	walk(reflect.TypeOf(Scenario{}), "Scenario")
	walk(reflect.TypeOf(Hardware{}), "Hardware")
	if len(keys) < 50 {
		t.Fatalf("found only %d schema keys; the walk is broken", len(keys))
	}
	var missing []string
	for k, at := range keys {
		// `key`, a path `a.key` / `key.b`, **key**, a table header | key |, or key: in YAML.
		forms := []string{"`" + k + "`", "." + k + "`", "`" + k + ".", "." + k + ".", "**" + k + "**", "| " + k + " |",
			"`" + k + ":", "{" + k + ":", " " + k + ":"}
		found := false
		for _, f := range forms {
			found = found || strings.Contains(doc, f)
		}
		if !found {
			missing = append(missing, k+" ("+at+")")
		}
	}
	sort.Strings(missing)
	if len(missing) > 0 {
		t.Errorf("docs/scenarios.md does not mention these scenario keys (as `key`):\n  %s", strings.Join(missing, "\n  "))
	}
}
