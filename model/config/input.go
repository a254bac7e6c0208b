package config

import (
	"errors"
	"fmt"
	"io"
	"os"
	"syscall"
	"unicode/utf8"
)

// Inputs are untrusted: a scenario, a hardware profile or a sweep spec is whatever path a
// user (or a --set) names, which may be a device, a FIFO, a directory or a file far larger
// than any scenario. ReadInput is how every one of them is read.

// MaxInputSize is the largest scenario, profile or sweep spec file read (docs/limits.md).
// The largest shipped file is a few KiB; yaml.v3 takes about 1 s and allocates 70-120 MB to
// parse one MiB of dense YAML on the 2-core development machine, so 1 MiB keeps a refusal —
// or an acceptance — within seconds and a few hundred MB.
const MaxInputSize = 1 << 20

// ReadInput reads a user-named input file: it must be a regular file (symlinks to one are
// followed) of at most MaxInputSize bytes. Errors are *os.PathError, like os.ReadFile's.
func ReadInput(path string) ([]byte, error) {
	if IsShipped(path) {
		return readShipped(path) // compiled into the binary (shipped.go)
	}
	return ReadInputLimit(path, MaxInputSize, "a YAML file")
}

// ReadInputLimit is ReadInput for an input of another kind and size (a results
// directory's files, an imported text): a regular file of at most limit bytes, read
// without blocking; expected names what was expected in the refusal ("a results.jsonl").
func ReadInputLimit(path string, limit int64, expected string) ([]byte, error) {
	// Stat before opening: opening a FIFO blocks until a writer appears. O_NONBLOCK covers
	// a path swapped for one in between (it does nothing to a regular file).
	if fi, err := os.Stat(path); err != nil {
		return nil, err
	} else if !fi.Mode().IsRegular() {
		return nil, &os.PathError{Op: "read", Path: path, Err: fmt.Errorf("not a regular file (%s): expected %s", fileKind(fi.Mode()), expected)}
	}
	f, err := os.OpenFile(path, os.O_RDONLY|syscall.O_NONBLOCK, 0)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil {
		return nil, err
	}
	if !fi.Mode().IsRegular() {
		return nil, &os.PathError{Op: "read", Path: path, Err: fmt.Errorf("not a regular file (%s): expected %s", fileKind(fi.Mode()), expected)}
	}
	if fi.Size() > limit {
		return nil, &os.PathError{Op: "read", Path: path, Err: errTooLarge(fi.Size(), limit, expected)}
	}
	// The size can change after Stat (a file being written): read through the limit anyway.
	data, err := io.ReadAll(io.LimitReader(f, limit+1))
	if err != nil {
		return nil, &os.PathError{Op: "read", Path: path, Err: err}
	}
	if int64(len(data)) > limit {
		return nil, &os.PathError{Op: "read", Path: path, Err: errTooLarge(int64(len(data)), limit, expected)}
	}
	return data, nil
}

// ErrTooLarge marks an input over MaxInputSize.
var ErrTooLarge = errors.New("input file too large")

func errTooLarge(n, limit int64, expected string) error {
	if limit == MaxInputSize {
		return fmt.Errorf("%w: %s, the limit is %s (docs/limits.md); a scenario is a few KiB", ErrTooLarge, Size(n), Size(limit))
	}
	return fmt.Errorf("%w: %s, the limit for %s is %s (docs/limits.md)", ErrTooLarge, Size(n), expected, Size(limit))
}

func fileKind(m os.FileMode) string {
	switch {
	case m.IsDir():
		return "a directory"
	case m&os.ModeDevice != 0:
		return "a device"
	case m&os.ModeNamedPipe != 0:
		return "a named pipe"
	case m&os.ModeSocket != 0:
		return "a socket"
	}
	return "not a plain file"
}

// Excerpt is how foreign text (a value, a key, a line of someone else's file) appears in a
// message: at most max runes, cut with "…" and the full length noted, so naming a large
// text file where a profile belongs prints a line, not the file.
func Excerpt(s string, max int) string {
	c := cut(s, max)
	if c == s {
		return s
	}
	return fmt.Sprintf("%s… (%d bytes)", c, len(s))
}

// cut returns the first max runes of s (all of s when it is not longer).
func cut(s string, max int) string {
	if max <= 0 || utf8.RuneCountInString(s) <= max {
		return s
	}
	n := 0
	for i := range s {
		if n == max {
			return s[:i]
		}
		n++
	}
	return s
}

// Lengths of quoted foreign text in messages.
const (
	excerptValue = 60
	excerptPath  = 120
	excerptMsg   = 2000
)
