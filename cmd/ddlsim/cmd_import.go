package main

import (
	"bytes"
	"errors"
	"flag"
	"fmt"
	"github.com/ddlsim/ddlsim/internal/output"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"strings"

	"github.com/ddlsim/ddlsim/internal/mycnf"
	"github.com/ddlsim/ddlsim/model/config"
)

var importCmd = &command{
	name:     "import",
	args:     "[MY.CNF]",
	synopsis: "write a scenario and hardware profile from a server's my.cnf, SHOW VARIABLES/STATUS, lscpu, free, lsblk",
	usage: `Reads a real server's settings and writes DIR/NAME.yaml (a scenario) and
DIR/NAME-profile.yaml (its hardware profile) for you to edit, then loads the scenario to check
it. Inputs, all optional but one of MY.CNF and --variables:

  MY.CNF          the option file: its [mysqld], [server], [mysqld-8.0], [mariadb]... groups,
                  MySQL's rules (hyphens or underscores, skip-/loose- prefixes, comments,
                  quotes; a bare integer in the variable's native unit). !include is not
                  followed (said so).
  --variables F   mysql -B -e 'SHOW GLOBAL VARIABLES' > F: the values the server runs with
                  (they win over my.cnf for what the model reads) and the version
  --status F      mysql -B -e 'SHOW GLOBAL STATUS' > F: the traffic (Questions/Uptime as an
                  open-loop rate, the Com_* counters' mix as the nearest sysbench script,
                  Threads_running as threads) and how full and dirty the pool is
  --tables F      mysql -B -e "SELECT TABLE_SCHEMA, TABLE_NAME, ENGINE, TABLE_ROWS,
                  AVG_ROW_LENGTH, DATA_LENGTH, INDEX_LENGTH FROM information_schema.TABLES" > F:
                  the InnoDB tables as data groups of their size and row size
  --schema F      mysql -e 'SHOW CREATE TABLE db.t\G' > F: the DDL's table: its columns'
                  stored sizes (the key size of an index on them), its index count, and
                  the ADD INDEX column (the first no index begins with: EDIT)
  --lscpu F, --free F, --lsblk F
                  lscpu > F, free -b > F, lsblk -d -o NAME,ROTA,TRAN,SIZE,MODEL > F: cores,
                  memory, last-level cache and the data disk's device preset

The mysql: block keeps every setting: those the model reads canonically spelled, with the
line each came from; the real variables it does not read as they were (loading warns once,
listing them); names that are no server variable as comments. The profile builds on the
nearest shipped profile (base:), whose CPU costs it keeps. data, workload and schedule are a
starting point, marked EDIT. Existing files are not replaced without --force.

A value the model cannot read for a variable it uses (96Gb, 1e99, full-width digits) is an
error at its line, exit 2, listing every such value; --lenient writes it as a comment and
simulates the default instead, with a warning naming it. Control bytes, a CPU count that is
no count, or memory below the pool are errors.`,
	setup: func(fs *flag.FlagSet) func(e *env, args []string) error {
		var (
			vars, status, lscpu, free, lsblk string
			tables, schemaFile               string
			name, dir                        string
			force, lenient                   bool
		)
		fs.StringVar(&vars, "variables", "", "SHOW GLOBAL VARIABLES output (mysql -B) in `FILE`")
		fs.StringVar(&status, "status", "", "SHOW GLOBAL STATUS output (mysql -B) in `FILE`")
		fs.StringVar(&lscpu, "lscpu", "", "lscpu output in `FILE`")
		fs.StringVar(&free, "free", "", "free -b output in `FILE`")
		fs.StringVar(&lsblk, "lsblk", "", "lsblk output in `FILE` (lsblk -d -o NAME,ROTA,TRAN,SIZE,MODEL)")
		fs.StringVar(&schemaFile, "schema", "", "SHOW CREATE TABLE output of the DDL's table in `FILE`: its columns' sizes, its indexes")
		fs.StringVar(&tables, "tables", "", "an information_schema.TABLES dump (mysql -B) in `FILE`: the data groups' sizes and row sizes")
		fs.StringVar(&name, "name", "", "scenario `NAME` (default: the my.cnf's file name, or imported)")
		fs.StringVar(&dir, "out", ".", "write the two files into `DIR`")
		fs.BoolVar(&force, "force", false, "replace existing files")
		fs.BoolVar(&lenient, "lenient", false, "simulate the default, with a warning, for a value the model cannot read (else exit 2)")
		return func(e *env, args []string) error {
			if len(args) > 1 {
				return usagef("import takes at most one my.cnf, got %d arguments", len(args))
			}
			in := mycnf.Inputs{Name: name, Lenient: lenient}
			if len(args) == 1 {
				data, err := readImport(args[0])
				if err != nil {
					return err
				}
				if in.Cnf, err = mycnf.ParseMyCnf(bytes.NewReader(data), filepath.Base(args[0])); err != nil {
					return &inputError{err}
				}
				if in.Name == "" {
					in.Name = strings.TrimSuffix(strings.TrimSuffix(filepath.Base(args[0]), ".cnf"), ".ini")
				}
			}
			if vars == "" && in.Cnf == nil {
				return usagef("import needs a my.cnf or --variables FILE; run 'ddlsim help import'")
			}
			var err error
			if in.Variables, err = readTable(vars); err != nil {
				return err
			}
			if in.Status, err = readTable(status); err != nil {
				return err
			}
			if tables != "" {
				data, err := readImport(tables)
				if err != nil {
					return err
				}
				if in.Tables, err = mycnf.ParseTables(bytes.NewReader(data), filepath.Base(tables)); err != nil {
					return &inputError{err}
				}
			}
			if schemaFile != "" {
				data, err := readImport(schemaFile)
				if err != nil {
					return err
				}
				if in.Schema, err = mycnf.ParseCreateTable(bytes.NewReader(data), filepath.Base(schemaFile)); err != nil {
					return &inputError{err}
				}
			}
			if lscpu != "" || free != "" || lsblk != "" {
				in.Machine = &mycnf.Machine{}
				for _, p := range []struct {
					file  string
					parse func(io.Reader, string, *mycnf.Machine) error
				}{{lscpu, mycnf.ParseLscpu}, {free, mycnf.ParseFree}, {lsblk, mycnf.ParseLsblk}} {
					if p.file == "" {
						continue
					}
					data, err := readImport(p.file)
					if err != nil {
						return err
					}
					if err := p.parse(bytes.NewReader(data), filepath.Base(p.file), in.Machine); err != nil {
						return &inputError{err}
					}
				}
			}
			if in.Name == "" {
				in.Name = "imported"
			}
			if !safeName.MatchString(in.Name) {
				return usagef("--name %q: use letters, digits, '.', '-' and '_'", in.Name)
			}
			return e.importFiles(in, dir, force)
		}
	},
}

var safeName = regexp.MustCompile(`^[A-Za-z0-9][A-Za-z0-9._-]*$`)

func readImport(path string) ([]byte, error) {
	data, err := config.ReadInput(path)
	if err != nil {
		return nil, &inputError{err}
	}
	return data, nil
}

func readTable(path string) ([]mycnf.Setting, error) {
	if path == "" {
		return nil, nil
	}
	data, err := readImport(path)
	if err != nil {
		return nil, err
	}
	s, err := mycnf.ParseTable(bytes.NewReader(data), filepath.Base(path))
	if err != nil {
		return nil, &inputError{err}
	}
	return s, nil
}

func (e *env) importFiles(in mycnf.Inputs, dir string, force bool) error {
	res, err := mycnf.Build(in)
	if err != nil {
		return &inputError{err}
	}
	scen := filepath.Join(dir, in.Name+".yaml")
	prof := filepath.Join(dir, in.Name+"-profile.yaml")
	if !force {
		for _, p := range []string{scen, prof} {
			if _, err := os.Stat(p); err == nil {
				return usagef("%s exists: give --force to replace it, or --name/--out for other files", p)
			} else if !errors.Is(err, fs.ErrNotExist) {
				return &inputError{err}
			}
		}
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return &inputError{err}
	}
	for _, f := range []struct{ path, text string }{{prof, res.Profile}, {scen, res.Scenario}} {
		if err := output.WriteFileAtomic(f.path, []byte(f.text)); err != nil {
			return &inputError{err}
		}
	}
	w := e.stdout
	fmt.Fprintf(w, "wrote %s (scenario) and %s (profile, built on %s)\n", scen, prof, res.Base)
	fmt.Fprintf(w, "mysql: %d variables the model reads: %s\n", len(res.Used), strings.Join(res.Used, ", "))
	for _, n := range res.Warnings {
		fmt.Fprintf(e.stderr, "warning: %s\n", n)
	}
	sc, err := config.Load(scen)
	if err != nil {
		fmt.Fprintf(w, "the scenario does not load yet: fix the lines below, then 'ddlsim check %s'\n", scen)
		return &inputError{err}
	}
	if n := len(sc.MySQL.Ignored); n > 0 {
		fmt.Fprintf(w, "ignored: %d real server variables the model does not use (kept in mysql:, the load warns): %s\n", n, strings.Join(sc.MySQL.Ignored, ", "))
	}
	if len(res.Unknown) > 0 {
		fmt.Fprintf(w, "unknown: %d names that are no server variable ddlsim knows (commented out): %s\n", len(res.Unknown), strings.Join(res.Unknown, ", "))
	}
	for _, n := range res.Notes {
		fmt.Fprintf(w, "note: %s\n", n)
	}

	fmt.Fprintf(w, "next: edit data, workload and schedule in %s (marked EDIT), then 'ddlsim run %s'\n", scen, scen)
	return nil
}
