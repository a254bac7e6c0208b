package config

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"sort"
	"strings"

	"github.com/ddlsim/ddlsim/scenarios"
)

// Shipped files: the scenarios, sweep specs, hardware profiles and device presets of the
// repository's scenarios/ directory, compiled into the binary (package scenarios), so an
// installed ddlsim finds them from any directory. A path "shipped:REL" names the file REL
// of scenarios/ inside the binary; every reader of user inputs (ReadInput) and every
// relative reference (Dir, Join) understands it, so a shipped scenario's
// `hardware: profiles/8c-64g.yaml` resolves inside the binary as it does in a checkout.
//
// Names: a profile reference with no slash and no .yaml suffix (`hardware: 8c-64g`,
// `base: 80c-256g`) is a shipped profile, `storage: {data: nvme}` a shipped device preset.

// ShippedPrefix marks a path inside the shipped files.
const ShippedPrefix = "shipped:"

// Where references of each kind are looked up by name.
const (
	profilesDir = "profiles"
	devicesDir  = "profiles/devices"
)

// IsShipped reports whether p names a shipped file.
func IsShipped(p string) bool { return strings.HasPrefix(p, ShippedPrefix) }

// Dir is filepath.Dir for disk and shipped paths alike ("shipped:faster-ddl/x.yaml" →
// "shipped:faster-ddl", "shipped:quickstart.yaml" → "shipped:.").
func Dir(p string) string {
	if IsShipped(p) {
		return ShippedPrefix + path.Dir(strings.TrimPrefix(p, ShippedPrefix))
	}
	return filepath.Dir(p)
}

// Join resolves ref relative to the directory dir, which may be shipped: a reference in a
// shipped file stays inside the shipped files. An absolute ref is a disk path.
func Join(dir, ref string) string {
	if filepath.IsAbs(ref) || IsShipped(ref) {
		return ref
	}
	if IsShipped(dir) {
		return ShippedPrefix + path.Join(strings.TrimPrefix(dir, ShippedPrefix), filepath.ToSlash(ref))
	}
	return filepath.Join(dir, ref)
}

// readShipped reads a shipped file; errors are *os.PathError like ReadInput's.
func readShipped(p string) ([]byte, error) {
	rel := strings.TrimPrefix(p, ShippedPrefix)
	if !fs.ValidPath(rel) {
		return nil, &os.PathError{Op: "read", Path: p, Err: fs.ErrNotExist}
	}
	b, err := fs.ReadFile(scenarios.FS, rel)
	if err != nil {
		var pe *fs.PathError
		if errors.As(err, &pe) {
			err = pe.Err
		}
		return nil, &os.PathError{Op: "read", Path: p, Err: err}
	}
	return b, nil
}

// shippedExists reports whether a shipped file exists.
func shippedExists(rel string) bool {
	fi, err := fs.Stat(scenarios.FS, rel)
	return err == nil && !fi.IsDir()
}

// Locate maps the scenario or sweep spec a user named on the command line to the file to
// read: the file on disk when it exists; otherwise the shipped file it names —
// "quickstart", "quickstart.yaml", "scenarios/quickstart.yaml", "faster-ddl/create-index" or
// "shipped:quickstart.yaml" — and p itself when neither exists (its error is then about p).
func Locate(p string) string {
	if IsShipped(p) {
		return p
	}
	if _, err := os.Stat(p); err == nil || !errors.Is(err, fs.ErrNotExist) {
		return p
	}
	rel := filepath.ToSlash(filepath.Clean(p))
	rel = strings.TrimPrefix(rel, "scenarios/")
	for _, c := range []string{rel, rel + ".yaml"} {
		if fs.ValidPath(c) && strings.HasSuffix(c, ".yaml") && shippedExists(c) {
			return ShippedPrefix + c
		}
	}
	return p
}

// isName reports whether a profile or device reference is a shipped name rather than a
// path: no directory separator and no YAML suffix.
func isName(ref string) bool {
	return ref != "" && !strings.ContainsAny(ref, `/\`) && !strings.HasSuffix(ref, ".yaml") &&
		!strings.HasSuffix(ref, ".yml") && !strings.HasPrefix(ref, ".") && !IsShipped(ref)
}

// refKind is what a reference names: a hardware profile or a storage device.
type refKind struct {
	what string // "profile" or "device preset", for messages
	dir  string // where shipped ones of this kind live
}

var (
	profileRef = refKind{"profile", profilesDir}
	deviceRef  = refKind{"device preset", devicesDir}
)

// resolveRef turns a reference written in a file in dir into the path to read.
func resolveRef(ref, dir string, k refKind) (string, error) {
	if !isName(ref) {
		return Join(dir, ref), nil
	}
	if shippedExists(k.dir + "/" + ref + ".yaml") {
		return ShippedPrefix + k.dir + "/" + ref + ".yaml", nil
	}
	names := shippedNames(k.dir)
	msg := fmt.Sprintf("no shipped %s %q", k.what, ref)
	if s := suggest(ref, names); s != "" {
		msg += fmt.Sprintf(" (did you mean %s?)", s)
	}
	return "", fmt.Errorf("%s; shipped: %s; a file is named by a path (./%s.yaml)", msg, strings.Join(names, ", "), ref)
}

// shippedNames lists the names of the shipped YAML files directly in dir, sorted.
func shippedNames(dir string) []string {
	ents, _ := fs.ReadDir(scenarios.FS, dir)
	var out []string
	for _, e := range ents {
		if !e.IsDir() && strings.HasSuffix(e.Name(), ".yaml") {
			out = append(out, strings.TrimSuffix(e.Name(), ".yaml"))
		}
	}
	sort.Strings(out)
	return out
}

// ShippedProfiles lists the names of the shipped hardware profiles (`hardware: NAME`,
// `base: NAME`).
func ShippedProfiles() []string { return shippedNames(profilesDir) }

// DevicePresets lists the names of the shipped storage device presets
// (`storage: {data: NAME}`).
func DevicePresets() []string { return shippedNames(devicesDir) }

// ProfilePath and DevicePath are the shipped paths of a profile and a device preset.
func ProfilePath(name string) string { return ShippedPrefix + profilesDir + "/" + name + ".yaml" }

// DevicePath is the shipped path of a device preset.
func DevicePath(name string) string { return ShippedPrefix + devicesDir + "/" + name + ".yaml" }

// ShippedFiles lists every shipped file (scenarios, sweep specs, profiles, presets) as
// "shipped:REL" paths, sorted.
func ShippedFiles() []string {
	var out []string
	fs.WalkDir(scenarios.FS, ".", func(p string, d fs.DirEntry, err error) error {
		if err == nil && !d.IsDir() && strings.HasSuffix(p, ".yaml") {
			out = append(out, ShippedPrefix+p)
		}
		return nil
	})
	sort.Strings(out)
	return out
}

// Summary returns the first comment paragraph of a YAML file as one line (what `ddlsim list`
// shows for a shipped file).
func Summary(data []byte) string {
	var parts []string
	for _, line := range strings.Split(string(data), "\n") {
		t := strings.TrimSpace(line)
		if !strings.HasPrefix(t, "#") {
			break
		}
		t = strings.TrimSpace(strings.TrimPrefix(t, "#"))
		if t == "" {
			if len(parts) > 0 {
				break
			}
			continue
		}
		parts = append(parts, t)
	}
	return strings.Join(parts, " ")
}
