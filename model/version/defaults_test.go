package version

import (
	"bufio"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
)

// defaultsFiles maps each accepted version family to the version evaluated and the reference
// file read from that server's sources (testdata/README.md). Percona Server is compared with
// MySQL's file of the same minor version.
var defaultsFiles = map[string]struct{ version, file string }{
	"5.5.N":           {"5.5.59", "defaults-mysql-5.5.txt"},
	"5.6.N":           {"5.6.21", "defaults-mysql-5.6.txt"},
	"5.7.N":           {"5.7.18", "defaults-mysql-5.7.txt"},
	"8.0.N":           {"8.0.41", "defaults-mysql-8.0.txt"},
	"8.4.N":           {"8.4.4", "defaults-mysql-8.4.txt"},
	"percona-5.5.N":   {"percona-5.5.59", "defaults-mysql-5.5.txt"},
	"percona-5.6.N":   {"percona-5.6.21", "defaults-mysql-5.6.txt"},
	"percona-5.7.N":   {"percona-5.7.18", "defaults-mysql-5.7.txt"},
	"mariadb-10.11.N": {"mariadb-10.11.14", "defaults-mariadb-10.11.txt"},
}

type refLine struct {
	env        Env
	name, val  string
	file, line string
}

func readRef(t *testing.T, file string) []refLine {
	t.Helper()
	f, err := os.Open(filepath.Join("testdata", file))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var out []refLine
	var env *Env
	sc := bufio.NewScanner(f)
	for n := 1; sc.Scan(); n++ {
		at := file + ":" + strconv.Itoa(n)
		text, _, _ := strings.Cut(sc.Text(), "#")
		text = strings.TrimSpace(text)
		if text == "" {
			continue
		}
		if rest, ok := strings.CutPrefix(text, "@env "); ok {
			e := Env{}
			for _, kv := range strings.Fields(rest) {
				k, v, _ := strings.Cut(kv, "=")
				x, err := strconv.ParseInt(v, 10, 64)
				if err != nil {
					t.Fatalf("%s: bad @env %q", at, kv)
				}
				switch k {
				case "pool":
					e.Pool = x
				case "cpus":
					e.CPUs = int(x)
				case "io":
					e.IOCapacity = int(x)
				default:
					t.Fatalf("%s: unknown @env key %q", at, k)
				}
			}
			env = &e
			continue
		}
		f := strings.Split(text, "\t")
		if len(f) != 2 || env == nil {
			t.Fatalf("%s: expected 'variable<TAB>value' after an @env line, got %q", at, text)
		}
		out = append(out, refLine{*env, f[0], strings.TrimSpace(f[1]), file, at})
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	return out
}

// TestDefaultsMatchServer: for every version family the table accepts, every variable the
// model reads has the server's own default (or is absent where the server has no such
// variable), at every environment the reference file names.
func TestDefaultsMatchServer(t *testing.T) {
	for _, fam := range Families {
		ref, ok := defaultsFiles[fam]
		if !ok {
			t.Errorf("family %s has no reference file in defaultsFiles", fam)
			continue
		}
		v := MustParse(ref.version)
		d := DefaultsOf(v)
		lines := readRef(t, ref.file)
		first := map[string]bool{}
		for i, l := range lines {
			if i == 0 || l.env == lines[0].env {
				first[l.name] = true
			}
			if !slices.Contains(ModelVars, l.name) {
				t.Errorf("%s: %s is not a variable the model reads (ModelVars)", l.line, l.name)
				continue
			}
			got, has := d.Vars(l.env)[l.name]
			switch {
			case l.val == "-" && has:
				t.Errorf("%s: %s: %s has no %s, the table gives it %s", l.line, fam, v, l.name, got)
			case l.val == "-":
			case !has:
				t.Errorf("%s: %s: %s's %s is %s, the table says the server has none (%s)", l.line, fam, v, l.name, l.val, d.Absent[l.name])
			case got != l.val:
				t.Errorf("%s: %s: %s's default %s at %+v is %s, the table gives %s", l.line, fam, v, l.name, l.env, l.val, got)
			}
		}
		for _, name := range ModelVars {
			if !first[name] {
				t.Errorf("%s: %s is not listed in the first @env section", ref.file, name)
			}
		}
	}
}

// TestDefaultsRules: the startup resolutions the reference files cannot all list.
func TestDefaultsRules(t *testing.T) {
	d80, d84 := DefaultsOf(MustParse("8.0.18")), DefaultsOf(MustParse("8.4.2"))
	if d80.Instances(512<<20, 64) != 1 || d80.Instances(2<<30, 2) != 8 {
		t.Error("8.0 instances: 1 below 1 GiB, 8 above whatever the CPUs")
	}
	if got := d84.Instances(100<<30, 0); got != 64 {
		t.Errorf("8.4 instances with a 100 GiB pool and unknown CPUs = %d, want the 64 cap", got)
	}
	if got := d84.Instances(2<<30, 2); got != 1 {
		t.Errorf("8.4 instances at 2 GiB on 2 CPUs = %d, want 1 (a quarter of 2 CPUs, at least 1)", got)
	}
	if d80.IOCapacityMax(200) != 2000 || d80.IOCapacityMax(1500) != 3000 {
		t.Error("io_capacity_max: max(2 * io_capacity, 2000)")
	}
	if !d80.AHI || d84.AHI || DefaultsOf(MustParse("mariadb-10.11.6")).AHI {
		t.Error("AHI: on in 8.0, off in 8.4 and MariaDB 10.11")
	}
	if DefaultsOf(MustParse("5.6.4")).OldBlocksTimeMS != 0 || DefaultsOf(MustParse("5.6.6")).OldBlocksTimeMS != 1000 {
		t.Error("old_blocks_time: 0 before 5.6.6, 1000 from it")
	}
	if DefaultsOf(MustParse("5.7.7")).PageCleaners(8) != 1 || DefaultsOf(MustParse("5.7.8")).PageCleaners(8) != 4 {
		t.Error("page_cleaners: 1 before 5.7.8, 4 from it")
	}
}
