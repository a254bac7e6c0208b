package main

import (
	"bytes"
	"context"
	"errors"
	"flag"
	"fmt"
	"github.com/ddlsim/ddlsim/internal/output"
	"os"
	"path/filepath"
	"runtime"
	"sort"
	"strings"

	"github.com/ddlsim/ddlsim/internal/validate"
)

var validateCmd = &command{
	name:     "validate",
	args:     "[VALIDATION.yaml...]",
	synopsis: "regenerate docs/validation.md's tables: annotated scenarios vs published and measured values",
	usage: `Each validation file in --annotations (docs/validation/*.yaml, docs/scenarios.md
"Validation files") names a scenario, points to run it at, the published or measured values
to compare with, their sources, the simulated statistic and whether a constant was fitted on
it. validate renders the tables of --doc (docs/validation.md) between their
<!-- validate ... --> markers from the results file (--results,
docs/validation/results.json): published/measured value, simulated mean ± 95% CI over the
file's seeds, the ratio, the role (fit / predict / check / report), and each profile's
provenance table (measured, fitted on what, assumed).

With --run it first simulates every point (of all validation files, or only of the files
given: their rows are replaced, the others kept), in parallel on --jobs cores, and writes the
results file. The results do not depend on --jobs. --out DIR writes the results file and the
doc into DIR instead of in place. --check writes nothing and fails when the doc's tables
(and, with --run, the results) differ from what would be written.`,
	setup: func(fs *flag.FlagSet) func(e *env, args []string) error {
		doRun := fs.Bool("run", false, "simulate the annotated scenarios (slow) instead of rendering the committed results")
		out := fs.String("out", "", "write the results file and the doc into `DIR` instead of in place")
		check := fs.Bool("check", false, "write nothing; fail if the doc (and with --run the results) would change")
		jobs := fs.Int("jobs", runtime.NumCPU(), "simulations run at once")
		root := fs.String("root", ".", "the repository `DIR`: the defaults below are in it, and the results record paths relative to it")
		annDir := fs.String("annotations", "", "`DIR` of the validation files (default ROOT/docs/validation)")
		resultsPath := fs.String("results", "", "results `FILE` (default ROOT/docs/validation/results.json)")
		docPath := fs.String("doc", "", "the doc `FILE` whose marked tables are rendered (default ROOT/docs/validation.md)")
		return func(e *env, pos []string) error {
			def := func(p *string, rel ...string) {
				if *p == "" {
					*p = filepath.Join(append([]string{*root}, rel...)...)
				}
			}
			def(annDir, "docs", "validation")
			def(resultsPath, "docs", "validation", "results.json")
			def(docPath, "docs", "validation.md")
			all, err := validate.Find(*annDir)
			if err != nil {
				return &inputError{err}
			}
			if len(all) == 0 && !(*doRun && len(pos) > 0) {
				return usagef("no validation file in %s", *annDir)
			}
			// Where the results and the doc go is proven writable before anything runs.
			if !*check {
				dirs := []string{filepath.Dir(*docPath)}
				if *doRun {
					dirs = append(dirs, filepath.Dir(*resultsPath))
				}
				if *out != "" {
					dirs = []string{*out}
				}
				for _, d := range dirs {
					if err := output.PrepareDir(d); err != nil {
						return usagef("--out: %v", err)
					}
				}
			}
			var res *validate.Results
			if *doRun {
				files := all
				if len(pos) > 0 {
					files = pos
				}
				// Every file is checked whole (fields, scenario, overrides, statistics) before
				// anything is printed or simulated.
				if _, err := validate.Load(files); err != nil {
					return err
				}
				fmt.Fprintf(e.stdout, "validate: %d validation files, %d jobs\n", len(files), *jobs)
				ctx, stop := interruptible(e.stderr)
				res, err = validate.Run(ctx, files, validate.Options{Jobs: *jobs, Progress: e.stderr, Root: *root})
				stop()
				if errors.Is(err, context.Canceled) {
					return fmt.Errorf("validate interrupted: nothing written (the results file and the doc are as they were)")
				}
				if err != nil {
					return err
				}
				if len(pos) > 0 {
					old, err := validate.ReadResults(*resultsPath)
					if errors.Is(err, os.ErrNotExist) {
						old, err = &validate.Results{Schema: validate.Schema}, nil
					}
					if err != nil {
						return &inputError{err}
					}
					if res, err = mergeResults(old, res, all, *root); err != nil {
						return err
					}
				}
			} else {
				if len(pos) > 0 {
					return usagef("validation files are only taken with --run")
				}
				if res, err = validate.ReadResults(*resultsPath); err != nil {
					return &inputError{err}
				}
				stale, err := validate.Stale(res, all, *root)
				if err != nil {
					return &inputError{err}
				}
				if len(stale) > 0 {
					return fmt.Errorf("%s is not the results of the validation files (run ddlsim validate --run):\n  %s",
						*resultsPath, strings.Join(stale, "\n  "))
				}
			}
			data, err := res.Marshal()
			if err != nil {
				return err
			}
			docIn, err := os.ReadFile(*docPath)
			if err != nil {
				return &inputError{err}
			}
			blocks := validate.Render(res)
			doc, err := validate.UpdateDoc(string(docIn), blocks)
			if err != nil {
				return fmt.Errorf("%s: %v", *docPath, err)
			}
			for _, k := range sortedKeys(blocks) {
				fmt.Fprintf(e.stdout, "\n%s\n%s", k, blocks[k])
			}
			if *check {
				var diffs []string
				if doc != string(docIn) {
					diffs = append(diffs, *docPath+"'s tables differ from the results")
				}
				if *doRun {
					old, err := os.ReadFile(*resultsPath)
					if err != nil || !bytes.Equal(old, data) {
						diffs = append(diffs, *resultsPath+" differs from this run")
					}
				}
				if len(diffs) > 0 {
					return fmt.Errorf("validate --check: %s", strings.Join(diffs, "; "))
				}
				fmt.Fprintln(e.stdout, "\nvalidate --check: up to date")
				return nil
			}
			resOut, docOut := *resultsPath, *docPath
			if *out != "" {
				if err := os.MkdirAll(*out, 0o755); err != nil {
					return err
				}
				resOut, docOut = filepath.Join(*out, filepath.Base(resOut)), filepath.Join(*out, filepath.Base(docOut))
			}
			if *doRun || *out != "" {
				if err := os.MkdirAll(filepath.Dir(resOut), 0o755); err != nil {
					return err
				}
				if err := output.WriteFileAtomic(resOut, data); err != nil {
					return err
				}
			}
			if err := output.WriteFileAtomic(docOut, []byte(doc)); err != nil {
				return err
			}
			fmt.Fprintf(e.stdout, "\nwrote %s and %s\n", resOut, docOut)
			return nil
		}
	},
}

// mergeResults replaces old's rows of the files fresh re-ran, keeping the order of all; the
// provenance tables are those of all the files.
func mergeResults(old, fresh *validate.Results, all []string, root string) (*validate.Results, error) {
	ran := map[string]bool{}
	for _, r := range fresh.Rows {
		ran[r.Annotation] = true
	}
	byFile := map[string][]validate.Row{}
	for _, r := range old.Rows {
		if !ran[r.Annotation] {
			byFile[r.Annotation] = append(byFile[r.Annotation], r)
		}
	}
	for _, r := range fresh.Rows {
		byFile[r.Annotation] = append(byFile[r.Annotation], r)
	}
	out := &validate.Results{Schema: validate.Schema}
	for _, f := range all {
		rel, err := filepath.Rel(root, f)
		if err != nil {
			return nil, err
		}
		out.Rows = append(out.Rows, byFile[filepath.ToSlash(rel)]...)
	}
	var err error
	out.Constants, err = validate.ProfileConstants(all, root)
	return out, err
}

func sortedKeys(m map[string]string) []string {
	var ks []string
	for k := range m {
		ks = append(ks, k)
	}
	sort.Strings(ks)
	return ks
}
