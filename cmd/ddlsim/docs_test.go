package main

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"
)

// TestDocExamples keeps the documentation's commands and sample outputs true: every fenced
// block of README.md and docs/*.md is read, and
//
//   - each `ddlsim ...`, `./ddlsim ...` or `go run ./cmd/ddlsim ...` line in it runs (this
//     test binary is the command, see wfBuild) and must exit 0. Lines of other programs
//     (`go test ./...`) are not run. The block's commands run in order, in a fresh directory
//     with copies of scenarios/ and docs/ and links to the other top-level entries (workdir),
//     so `scenarios/...` resolves and what a command writes stays private to the block.
//   - a block preceded by `<!-- fast: ARGS -->` runs each of its commands with ARGS appended
//     (a shorter duration, one shard): what the reader runs takes longer than this test may.
//   - a block preceded by `<!-- output -->` (or `<!-- output: stderr exit=2 lines=1-12,30-31 -->`)
//     starts with a `$ ddlsim ...` line and is that command's exact stdout (or stderr; with
//     lines=, those line ranges joined by "..." lines) below it; it is compared with what the
//     command prints now, and rewritten by
//     DDLSIM_UPDATE_DOC=1 go test ./cmd/ddlsim -run TestDocExamples
//   - a block preceded by `<!-- not-run: REASON -->` is skipped; the reason is required.
//
// A block that mentions a ddlsim command the test cannot run as written (shell syntax, a
// variable, a command inside another program's arguments) must be marked not-run.
func TestDocExamples(t *testing.T) {
	if testing.Short() {
		t.Skip("simulates every documented example (~10 s); go test without -short runs it (the race run in .ci/run is -short)")
	}
	root, err := filepath.Abs("../..")
	if err != nil {
		t.Fatal(err)
	}
	files, err := docFiles(root)
	if err != nil {
		t.Fatal(err)
	}
	bin := wfBuild(t, "")
	update := os.Getenv("DDLSIM_UPDATE_DOC") == "1"

	var (
		mu       sync.Mutex
		rewrites = map[string]map[int][]string{} // file -> block's first body line -> new body
	)
	start := time.Now()
	t.Run("blocks", func(t *testing.T) {
		for _, f := range files {
			blocks, err := parseDocBlocks(filepath.Join(root, f))
			if err != nil {
				t.Fatal(err)
			}
			for _, b := range blocks {
				b.file = f
				if b.kind == "not-run" {
					if strings.TrimSpace(b.arg) == "" {
						t.Errorf("%s:%d: <!-- not-run: --> needs a reason", f, b.line)
					}
					continue
				}
				if b.kind == "output" {
					t.Run(fmt.Sprintf("%s:%d", f, b.line), func(t *testing.T) {
						t.Parallel()
						body, ok := b.checkOutput(t, root, bin, update)
						if ok && update {
							mu.Lock()
							if rewrites[f] == nil {
								rewrites[f] = map[int][]string{}
							}
							rewrites[f][b.bodyStart] = body
							mu.Unlock()
						}
					})
					continue
				}
				cmds, problems := b.commands()
				for _, p := range problems {
					t.Errorf("%s:%d: %s\n  mark the block <!-- not-run: why --> or write the command as a plain line", f, p.line, p.msg)
				}
				if len(cmds) == 0 {
					continue
				}
				t.Run(fmt.Sprintf("%s:%d", f, b.line), func(t *testing.T) {
					t.Parallel()
					b.run(t, root, bin, cmds)
				})
			}
		}
	})
	t.Logf("documentation examples: %.1f s", time.Since(start).Seconds())
	if update {
		for f, bodies := range rewrites {
			if err := rewriteDocBlocks(filepath.Join(root, f), bodies); err != nil {
				t.Error(err)
			} else {
				t.Logf("rewrote the sample outputs of %s", f)
			}
		}
	}
}

// docFiles are the documents whose blocks are checked, relative to the repository root.
func docFiles(root string) ([]string, error) {
	docs, err := filepath.Glob(filepath.Join(root, "docs", "*.md"))
	if err != nil {
		return nil, err
	}
	files := []string{"README.md"}
	for _, d := range docs {
		files = append(files, filepath.Join("docs", filepath.Base(d)))
	}
	sort.Strings(files[1:])
	return files, nil
}

type docBlock struct {
	file      string
	line      int    // 1-based line of the opening fence
	kind      string // "", "fast", "output", "not-run"
	arg       string // the marker's text after the colon
	bodyStart int    // 0-based index of the first body line in the file
	body      []string
}

var docMarker = regexp.MustCompile(`^<!--\s*(not-run|fast|output)\s*(?::\s*(.*?))?\s*-->$`)

// parseDocBlocks returns the fenced blocks of a Markdown file with the marker that precedes
// each (the nearest non-blank line before the fence, if it is one of the markers).
func parseDocBlocks(path string) ([]*docBlock, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	lines := strings.Split(string(b), "\n")
	var blocks []*docBlock
	var cur *docBlock
	fence := ""
	for i, l := range lines {
		trimmed := strings.TrimSpace(l)
		if cur == nil {
			if strings.HasPrefix(trimmed, "```") || strings.HasPrefix(trimmed, "~~~") {
				fence = trimmed[:3]
				cur = &docBlock{line: i + 1, bodyStart: i + 1}
				for j := i - 1; j >= 0; j-- {
					p := strings.TrimSpace(lines[j])
					if p == "" {
						continue
					}
					if m := docMarker.FindStringSubmatch(p); m != nil {
						cur.kind, cur.arg = m[1], m[2]
					}
					break
				}
			}
			continue
		}
		if strings.HasPrefix(trimmed, fence) && strings.Trim(trimmed, fence[:1]) == "" {
			blocks = append(blocks, cur)
			cur = nil
			continue
		}
		cur.body = append(cur.body, l)
	}
	if cur != nil {
		return nil, fmt.Errorf("%s:%d: unterminated code block", path, cur.line)
	}
	return blocks, nil
}

// rewriteDocBlocks replaces the bodies of the blocks starting at the given lines.
func rewriteDocBlocks(path string, bodies map[int][]string) error {
	b, err := os.ReadFile(path)
	if err != nil {
		return err
	}
	blocks, err := parseDocBlocks(path)
	if err != nil {
		return err
	}
	lines := strings.Split(string(b), "\n")
	var out []string
	next := 0
	for _, blk := range blocks {
		body, ok := bodies[blk.bodyStart]
		if !ok {
			continue
		}
		out = append(out, lines[next:blk.bodyStart]...)
		out = append(out, body...)
		next = blk.bodyStart + len(blk.body)
	}
	out = append(out, lines[next:]...)
	return os.WriteFile(path, []byte(strings.Join(out, "\n")), 0o644)
}

type docCmd struct {
	line int // 1-based line in the file
	text string
	args []string
}

type docProblem struct {
	line int
	msg  string
}

// ddlsimMention finds a ddlsim subcommand named anywhere in a line: a line that has one but
// is not a runnable command is an example the test cannot check.
func ddlsimMention() *regexp.Regexp {
	var names []string
	for _, c := range commands {
		names = append(names, regexp.QuoteMeta(c.name))
	}
	return regexp.MustCompile(`(^|[\s'(])(\./)?ddlsim\s+(` + strings.Join(names, "|") + `)\b`)
}

// docCommandLine is a line that starts a ddlsim command: ddlsim, ./ddlsim or go run ./cmd/ddlsim.
var docCommandLine = regexp.MustCompile(`^(\./)?ddlsim(\s|$)|^go\s+run\s+\./cmd/ddlsim/?(\s|$)`)

// commands extracts the block's ddlsim command lines (continuations joined, a leading
// "$ " prompt dropped) and the lines that name a ddlsim command but cannot be run as written.
func (b *docBlock) commands() ([]docCmd, []docProblem) {
	mention := ddlsimMention()
	var cmds []docCmd
	var problems []docProblem
	for i := 0; i < len(b.body); i++ {
		lineNo := b.bodyStart + i + 1
		text := b.body[i]
		for strings.HasSuffix(strings.TrimRight(text, " \t"), `\`) && i+1 < len(b.body) {
			text = strings.TrimSuffix(strings.TrimRight(text, " \t"), `\`) + " " + strings.TrimSpace(b.body[i+1])
			i++
		}
		text = strings.TrimSpace(text)
		text = strings.TrimPrefix(text, "$ ")
		if !docCommandLine.MatchString(text) {
			if mention.MatchString(text) {
				problems = append(problems, docProblem{lineNo, fmt.Sprintf("%q names a ddlsim command inside another command or text; it cannot run as written", text)})
			}
			continue
		}
		words, shell, err := shellWords(text)
		var args []string
		switch {
		case err != nil:
		case words[0] == "ddlsim" || words[0] == "./ddlsim":
			args = words[1:]
		default: // go run ./cmd/ddlsim
			args = words[3:]
		}
		if err != nil || shell != "" {
			why := shell
			if err != nil {
				why = err.Error()
			}
			problems = append(problems, docProblem{lineNo, fmt.Sprintf("%q uses shell syntax (%s)", text, why)})
			continue
		}
		if len(args) == 0 {
			continue // "go build -o ddlsim ..." is not a ddlsim command; a bare "ddlsim" neither
		}
		cmds = append(cmds, docCmd{line: lineNo, text: text, args: args})
	}
	return cmds, problems
}

// shellWords splits a command line the way sh does for the cases the docs use: blanks,
// '...' and "..." quotes, backslash escapes, and a # comment at the start of a word. shell
// is non-empty when the line needs a shell (pipes, redirections, variables, substitutions,
// several commands).
func shellWords(s string) (words []string, shell string, err error) {
	var cur strings.Builder
	inWord := false
	flush := func() {
		if inWord {
			words = append(words, cur.String())
		}
		cur.Reset()
		inWord = false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c == ' ' || c == '\t':
			flush()
		case c == '#' && !inWord:
			flush()
			return words, shell, nil
		case c == '\'':
			j := strings.IndexByte(s[i+1:], '\'')
			if j < 0 {
				return nil, "", errors.New("unterminated '")
			}
			cur.WriteString(s[i+1 : i+1+j])
			inWord = true
			i += j + 1
		case c == '"':
			inWord = true
			i++
			for ; i < len(s) && s[i] != '"'; i++ {
				if s[i] == '$' || s[i] == '`' {
					shell = "a substitution in double quotes"
				}
				if s[i] == '\\' && i+1 < len(s) && strings.IndexByte("\"\\$`", s[i+1]) >= 0 {
					i++
				}
				cur.WriteByte(s[i])
			}
			if i == len(s) {
				return nil, "", errors.New(`unterminated "`)
			}
		case c == '\\':
			if i+1 < len(s) {
				i++
				cur.WriteByte(s[i])
				inWord = true
			}
		case strings.IndexByte("|&;<>()$`", c) >= 0:
			shell = fmt.Sprintf("%q", string(c))
			cur.WriteByte(c)
			inWord = true
		default:
			cur.WriteByte(c)
			inWord = true
		}
	}
	flush()
	return words, shell, nil
}

// workdir is a fresh directory holding a copy of the repository's scenarios/ and docs/ (the
// paths the documents' commands name, and what a command writing in place would change) and
// a symlink to each other top-level entry but .git and out, so relative paths resolve and
// nothing a command writes reaches the repository.
func workdir(t *testing.T, root string) string {
	t.Helper()
	dir := t.TempDir()
	entries, err := os.ReadDir(root)
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range entries {
		n := e.Name()
		switch {
		case n == ".git" || n == "out":
		case e.IsDir() && (n == "scenarios" || n == "docs"):
			if err := os.CopyFS(filepath.Join(dir, n), os.DirFS(filepath.Join(root, n))); err != nil {
				t.Fatal(err)
			}
		default:
			if err := os.Symlink(filepath.Join(root, n), filepath.Join(dir, n)); err != nil {
				t.Fatal(err)
			}
		}
	}
	return dir
}

// docExec runs the command in dir and returns stdout, stderr and the exit code.
func docExec(t *testing.T, bin, dir string, args []string) (string, string, int, time.Duration) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, bin, args...)
	cmd.Dir = dir
	cmd.Env = wfCleanEnv()
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	start := time.Now()
	err := cmd.Run()
	took := time.Since(start)
	code := 0
	if err != nil {
		var ee *exec.ExitError
		if !errors.As(err, &ee) {
			t.Fatalf("ddlsim %v: %v", args, err)
		}
		code = ee.ExitCode()
	}
	return out.String(), errb.String(), code, took
}

func (b *docBlock) run(t *testing.T, root, bin string, cmds []docCmd) {
	dir := workdir(t, root)
	var extra []string
	if b.kind == "fast" {
		var shell string
		var err error
		extra, shell, err = shellWords(b.arg)
		if err != nil || shell != "" {
			t.Fatalf("%s:%d: <!-- fast: %s -->: not a plain argument list", b.file, b.line, b.arg)
		}
	}
	for _, c := range cmds {
		args := append(append([]string(nil), c.args...), extra...)
		stdout, stderr, code, took := docExec(t, bin, dir, args)
		t.Logf("%s:%d: %.1f s: ddlsim %s", b.file, c.line, took.Seconds(), strings.Join(args, " "))
		if strings.Contains(stderr, "warning:") {
			t.Logf("%s:%d: the example warns:\n%s", b.file, c.line, tail(stderr, 5))
		}
		if code != 0 {
			t.Errorf("%s:%d: %s\n  exit %d (ran: ddlsim %s)\n%s%s", b.file, c.line, c.text, code,
				strings.Join(args, " "), tail(stdout, 10), tail(stderr, 20))
		}
	}
}

var outputOption = regexp.MustCompile(`^(stderr|exit=\d+|lines=\d+-\d+(,\d+-\d+)*)$`)

// checkOutput runs an output block's command and compares what it prints with the block.
// It returns the block's up-to-date body.
func (b *docBlock) checkOutput(t *testing.T, root, bin string, update bool) ([]string, bool) {
	useStderr, wantExit, ranges := false, 0, ""
	for _, o := range strings.Fields(b.arg) {
		if !outputOption.MatchString(o) {
			t.Errorf("%s:%d: <!-- output: %s -->: unknown option %q (stderr, exit=N, lines=A-B,C-D)", b.file, b.line, b.arg, o)
			return nil, false
		}
		switch {
		case o == "stderr":
			useStderr = true
		case strings.HasPrefix(o, "lines="):
			ranges = strings.TrimPrefix(o, "lines=")
		default:
			wantExit, _ = strconv.Atoi(strings.TrimPrefix(o, "exit="))
		}
	}
	if len(b.body) == 0 || !strings.HasPrefix(b.body[0], "$ ") {
		t.Errorf("%s:%d: an output block starts with the command: \"$ ddlsim ...\"", b.file, b.line)
		return nil, false
	}
	first := &docBlock{file: b.file, bodyStart: b.bodyStart, body: b.body[:1]}
	cmds, problems := first.commands()
	if len(problems) > 0 || len(cmds) != 1 {
		t.Errorf("%s:%d: %q is not a plain ddlsim command", b.file, b.line+1, b.body[0])
		return nil, false
	}
	stdout, stderr, code, took := docExec(t, bin, workdir(t, root), cmds[0].args)
	t.Logf("%s:%d: %.1f s: %s", b.file, b.line, took.Seconds(), b.body[0])
	if code != wantExit {
		t.Errorf("%s:%d: %s: exit %d, want %d\n%s%s", b.file, b.line, b.body[0], code, wantExit, tail(stdout, 10), tail(stderr, 20))
		return nil, false
	}
	got := stdout
	if useStderr {
		got = stderr
	}
	printed := outputLines(got)
	if ranges != "" {
		var err error
		if printed, err = selectLines(printed, ranges); err != nil {
			t.Errorf("%s:%d: <!-- output: %s -->: %v", b.file, b.line, b.arg, err)
			return nil, false
		}
	}
	body := append([]string{b.body[0]}, printed...)
	if !update && strings.Join(body, "\n") != strings.Join(trimLines(b.body), "\n") {
		t.Errorf("%s:%d: the sample output of %q is not what the command prints; regenerate it with\n"+
			"  DDLSIM_UPDATE_DOC=1 go test ./cmd/ddlsim -run TestDocExamples\n%s",
			b.file, b.line, b.body[0], lineDiff(b.file, b.bodyStart+2, trimLines(b.body[1:]), body[1:]))
	}
	return body, true
}

// selectLines keeps the 1-based line ranges "A-B,C-D" of lines, in order, with a "..." line
// where lines are left out (between ranges and after the last, when it is not the end).
func selectLines(lines []string, ranges string) ([]string, error) {
	var out []string
	prev := 0
	for _, r := range strings.Split(ranges, ",") {
		a, b, _ := strings.Cut(r, "-")
		from, _ := strconv.Atoi(a)
		to, _ := strconv.Atoi(b)
		if from < 1 || to < from || from <= prev {
			return nil, fmt.Errorf("lines=%s: ranges must ascend from 1", ranges)
		}
		if to > len(lines) {
			return nil, fmt.Errorf("lines=%s: the command prints %d lines", ranges, len(lines))
		}
		if from > prev+1 {
			out = append(out, "...")
		}
		out = append(out, lines[from-1:to]...)
		prev = to
	}
	if prev < len(lines) {
		out = append(out, "...")
	}
	return out, nil
}

// outputLines is printed text as block lines: trailing blanks cut (Markdown editors strip
// them), trailing empty lines dropped.
func outputLines(s string) []string {
	lines := trimLines(strings.Split(s, "\n"))
	for len(lines) > 0 && lines[len(lines)-1] == "" {
		lines = lines[:len(lines)-1]
	}
	return lines
}

func trimLines(lines []string) []string {
	out := make([]string, len(lines))
	for i, l := range lines {
		out[i] = strings.TrimRight(l, " \t")
	}
	return out
}

// lineDiff shows the first lines where the documented and the printed output differ; the
// documented output starts at line first of file.
func lineDiff(file string, first int, doc, got []string) string {
	var b strings.Builder
	shown := 0
	for i := 0; i < len(doc) || i < len(got); i++ {
		var d, g string
		if i < len(doc) {
			d = doc[i]
		}
		if i < len(got) {
			g = got[i]
		}
		if d == g {
			continue
		}
		fmt.Fprintf(&b, "  %s:%d\n    doc:    %s\n    prints: %s\n", file, first+i, d, g)
		if shown++; shown == 5 {
			b.WriteString("  ...\n")
			break
		}
	}
	if len(doc) != len(got) {
		fmt.Fprintf(&b, "  (the doc has %d lines of output, the command prints %d)\n", len(doc), len(got))
	}
	return b.String()
}

func tail(s string, n int) string {
	lines := strings.Split(strings.TrimRight(s, "\n"), "\n")
	if len(lines) > n {
		lines = append([]string{"..."}, lines[len(lines)-n:]...)
	}
	if len(lines) == 1 && lines[0] == "" {
		return ""
	}
	return "  " + strings.Join(lines, "\n  ") + "\n"
}

// TestDocBlockParsing checks the extraction the documentation test relies on, so that a
// parser that finds nothing cannot pass it.
func TestDocBlockParsing(t *testing.T) {
	dir := t.TempDir()
	md := "# x\n\n```sh\n$ ddlsim run scenarios/quickstart.yaml --set 'policy={name: indexed}'  # a comment\ngo test ./...\n" +
		"go run ./cmd/ddlsim compare \\\n  a.yaml --seeds 1\n```\n\n<!-- not-run: a synopsis -->\n```\nddlsim run [flags] SCENARIO\n```\n" +
		"<!-- fast: --set duration=2s -->\n\n```\nfor p in a b; do ./ddlsim run x.yaml --policy $p; done\nsrun ./ddlsim sweep s.yaml\n```\n" +
		"<!-- output: stderr exit=2 -->\n~~~\n$ ddlsim check bad.yaml\nbad.yaml:1:1: oops\n~~~\n"
	p := filepath.Join(dir, "x.md")
	if err := os.WriteFile(p, []byte(md), 0o644); err != nil {
		t.Fatal(err)
	}
	blocks, err := parseDocBlocks(p)
	if err != nil {
		t.Fatal(err)
	}
	if len(blocks) != 4 {
		t.Fatalf("%d blocks, want 4", len(blocks))
	}
	kinds := []string{"", "not-run", "fast", "output"}
	for i, b := range blocks {
		if b.kind != kinds[i] {
			t.Errorf("block %d: kind %q, want %q", i, b.kind, kinds[i])
		}
	}
	if blocks[1].arg != "a synopsis" || blocks[2].arg != "--set duration=2s" || blocks[3].arg != "stderr exit=2" {
		t.Errorf("marker arguments %q %q %q", blocks[1].arg, blocks[2].arg, blocks[3].arg)
	}
	cmds, problems := blocks[0].commands()
	if len(problems) != 0 || len(cmds) != 2 {
		t.Fatalf("block 0: commands %v, problems %v", cmds, problems)
	}
	if got := strings.Join(cmds[0].args, "|"); got != "run|scenarios/quickstart.yaml|--set|policy={name: indexed}" {
		t.Errorf("command 0 args %s", got)
	}
	if got := strings.Join(cmds[1].args, "|"); got != "compare|a.yaml|--seeds|1" || cmds[1].line != 6 {
		t.Errorf("command 1 args %s at line %d", got, cmds[1].line)
	}
	_, problems = blocks[2].commands()
	if len(problems) != 2 {
		t.Errorf("block 2: problems %v, want the loop (shell syntax) and srun (a command inside another)", problems)
	}
	if got := strings.Join(blocks[3].body, "\n"); got != "$ ddlsim check bad.yaml\nbad.yaml:1:1: oops" {
		t.Errorf("output body %q", got)
	}
	// lines= keeps ranges, "..." marking what is left out.
	ten := strings.Split("1 2 3 4 5 6 7 8 9 10", " ")
	if got, err := selectLines(ten, "1-2,5-5"); err != nil || strings.Join(got, " ") != "1 2 ... 5 ..." {
		t.Errorf("selectLines 1-2,5-5: %q %v", got, err)
	}
	if got, err := selectLines(ten, "3-4,9-10"); err != nil || strings.Join(got, " ") != "... 3 4 ... 9 10" {
		t.Errorf("selectLines 3-4,9-10: %q %v", got, err)
	}
	for _, bad := range []string{"2-1", "1-3,2-4", "9-11"} {
		if _, err := selectLines(ten, bad); err == nil {
			t.Errorf("selectLines %s: no error", bad)
		}
	}
	// Rewriting replaces exactly the body of the block.
	if err := rewriteDocBlocks(p, map[int][]string{blocks[3].bodyStart: {"$ ddlsim check bad.yaml", "new"}}); err != nil {
		t.Fatal(err)
	}
	b, _ := os.ReadFile(p)
	if want := strings.Replace(md, "bad.yaml:1:1: oops", "new", 1); string(b) != want {
		t.Errorf("rewritten file:\n%s\nwant:\n%s", b, want)
	}
}

// TestDocInlineCommands: a `ddlsim ...` code span in the prose that names a scenario or spec
// file of the repository (scenarios/..., docs/...) is loaded as that command would load it (`ddlsim check FILE` with the span's --set,
// --policy and --seed), and `ddlsim list ...` / `ddlsim version` spans run, so a renamed file,
// a moved field or a stale override in the text fails here. Spans with placeholders
// (FILE, DIR, SPEC.yaml, `...`) are synopses and are skipped; nothing is simulated.
func TestDocInlineCommands(t *testing.T) {
	root, err := filepath.Abs("../..")
	if err != nil {
		t.Fatal(err)
	}
	files, err := docFiles(root)
	if err != nil {
		t.Fatal(err)
	}
	bin := wfBuild(t, "")
	dir := workdir(t, root)
	checked := 0
	for _, f := range files {
		for _, sp := range inlineDdlsimSpans(t, filepath.Join(root, f)) {
			args, ok := inlineCheckArgs(sp.words)
			if !ok {
				continue
			}
			checked++
			stdout, stderr, code, _ := docExec(t, bin, dir, args)
			if code != 0 {
				t.Errorf("%s:%d: `%s`: ddlsim %s exits %d\n%s%s", f, sp.line, sp.text, strings.Join(args, " "), code, tail(stdout, 5), tail(stderr, 10))
			}
		}
	}
	if checked < 5 {
		t.Errorf("only %d inline commands checked; the span extraction is broken", checked)
	}
	t.Logf("%d inline commands checked", checked)
}

type inlineSpan struct {
	line  int
	text  string
	words []string
}

// repoYAML is a scenario or spec the repository ships: what an inline span is checked on.
var repoYAML = regexp.MustCompile(`^(scenarios|docs)/[A-Za-z0-9_./-]+\.yaml$`)

var placeholder = regexp.MustCompile(`^[A-Z][A-Z_.]*(\.\.\.)?$|^[A-Z]+\.yaml$|\.\.\.|^\[|^<`)

// inlineDdlsimSpans returns the `ddlsim ...` code spans outside fenced blocks (a span may
// wrap across lines of a paragraph).
func inlineDdlsimSpans(t *testing.T, path string) []inlineSpan {
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var spans []inlineSpan
	lines := strings.Split(string(b), "\n")
	inFence := false
	para, paraLine := "", 0
	flush := func() {
		rest := para
		for {
			i := strings.IndexByte(rest, '`')
			if i < 0 {
				break
			}
			j := strings.IndexByte(rest[i+1:], '`')
			if j < 0 {
				break
			}
			text := rest[i+1 : i+1+j]
			line := paraLine + strings.Count(para[:len(para)-len(rest)+i], "\n")
			rest = rest[i+1+j+1:]
			text = strings.Join(strings.Fields(text), " ")
			if !strings.HasPrefix(text, "ddlsim ") {
				continue
			}
			words, shell, err := shellWords(text)
			if err != nil || shell != "" {
				continue
			}
			spans = append(spans, inlineSpan{line: line, text: text, words: words[1:]})
		}
		para = ""
	}
	for i, l := range lines {
		tr := strings.TrimSpace(l)
		if strings.HasPrefix(tr, "```") || strings.HasPrefix(tr, "~~~") {
			flush()
			inFence = !inFence
			continue
		}
		if inFence {
			continue
		}
		if tr == "" {
			flush()
			continue
		}
		if para == "" {
			paraLine = i + 1
		}
		para += l + "\n"
	}
	flush()
	return spans
}

// inlineCheckArgs turns a span's words into the command that checks it without simulating:
// ("check", FILE, --set ...) for run/compare/sweep/check with a .yaml file, the span itself
// for list and version; ok is false for anything else or a span with placeholders.
func inlineCheckArgs(words []string) ([]string, bool) {
	if len(words) == 0 {
		return nil, false
	}
	for _, w := range words {
		if placeholder.MatchString(w) {
			return nil, false
		}
	}
	switch words[0] {
	case "list", "version":
		return words, true
	case "run", "compare", "sweep", "check":
	default:
		return nil, false
	}
	args := []string{"check"}
	file := ""
	for i := 1; i < len(words); i++ {
		w := words[i]
		name, val, hasVal := strings.Cut(strings.TrimLeft(w, "-"), "=")
		if strings.HasPrefix(w, "-") && !hasVal && i+1 < len(words) && name != "quiet" && name != "plot" && name != "report" && name != "resume" && name != "series" {
			val = words[i+1]
			i++
		}
		switch {
		case !strings.HasPrefix(w, "-"):
			if !repoYAML.MatchString(w) || file != "" {
				return nil, false // x.yaml, DIR/config.yaml, {a,b}.yaml: illustrative, not a file
			}
			file = w
		case name == "set":
			args = append(args, "--set", val)
		case name == "policy":
			args = append(args, "--set", "policy="+val)
		case name == "seed":
			args = append(args, "--set", "seed="+val)
		}
	}
	if file == "" {
		return nil, false
	}
	return append(args, file), true
}
