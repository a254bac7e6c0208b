package output

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"strings"

	"github.com/ddlsim/ddlsim/model/config"
)

// Reading results back (plot, report, merge, --resume) is reading input: a directory may be
// another version's, cut short by a full disk or an interrupted copy, or not a result at all.
// Every file is read through config.ReadInputLimit (a regular file, a size limit, no
// blocking on a FIFO), its schema version is checked before its rows, and a file that ends
// mid-row is refused at its file and line — never drawn as if it were complete.

// MaxResultFile is the largest file of a results or run directory read back: a series is at
// most 10^6 intervals of about 0.5 KiB (docs/limits.md), and a sweep's results.jsonl at 10^6
// runs of a few hundred bytes.
const MaxResultFile = 1 << 30

// ReadError is a problem with a file of a results directory, at a line when there is one.
// It is the user's to fix (the command line exits 2).
type ReadError struct {
	File string
	Line int // 0: the whole file
	Msg  string
}

func (e *ReadError) Error() string {
	if e.Line > 0 {
		return fmt.Sprintf("%s:%d: %s", e.File, e.Line, e.Msg)
	}
	return fmt.Sprintf("%s: %s", e.File, e.Msg)
}

// SchemaError is a results directory written by a ddlsim with another layout
// (SchemaVersion): it is refused, with the command that re-creates it.
type SchemaError struct {
	File     string
	Have     int
	Recreate string // the command that writes the directory again with this ddlsim
}

func (e *SchemaError) Error() string {
	have := fmt.Sprintf("schema_version %d", e.Have)
	if e.Have == 0 {
		have = "no schema_version"
	}
	older := "an older"
	if e.Have > SchemaVersion {
		older = "a newer"
	}
	msg := fmt.Sprintf("%s: %s, this ddlsim reads %d: it was written by %s ddlsim, whose names and columns differ (docs/output.md, schema_version)", e.File, have, SchemaVersion, older)
	if e.Recreate != "" {
		msg += "; re-create it with: " + e.Recreate
	}
	return msg
}

// readFile reads one file of a results or run directory.
func readFile(path string) ([]byte, error) {
	b, err := config.ReadInputLimit(path, MaxResultFile, "a file of a ddlsim result")
	var pe *os.PathError
	if err != nil && !errors.Is(err, fs.ErrNotExist) && errors.As(err, &pe) {
		return nil, &ReadError{File: path, Msg: pe.Err.Error()} // absent stays fs.ErrNotExist
	}
	return b, err
}

// lines splits data into lines, reporting a last line that has no newline — a file cut short
// (every writer ends its files with one) — as a ReadError.
func lines(path string, data []byte) ([]string, error) {
	if len(data) == 0 {
		return nil, nil
	}
	text := string(data)
	ls := strings.Split(strings.TrimSuffix(text, "\n"), "\n")
	if !strings.HasSuffix(text, "\n") {
		return ls, &ReadError{File: path, Line: len(ls), Msg: fmt.Sprintf("truncated: the file ends inside line %d (%s), which is cut short", len(ls), config.Excerpt(ls[len(ls)-1], 40))}
	}
	return ls, nil
}

// readJSONLFile reads the rows of a results.jsonl or a point file: every line a row of this
// schema, the file complete.
func readJSONLFile(path string) ([]Row, error) {
	b, err := readFile(path)
	if err != nil {
		return nil, err
	}
	ls, err := lines(path, b)
	if err != nil {
		return nil, err
	}
	var rows []Row
	for i, l := range ls {
		if len(bytes.TrimSpace([]byte(l))) == 0 {
			continue
		}
		var row Row
		if err := row.UnmarshalJSON([]byte(l)); err != nil {
			return nil, &ReadError{File: path, Line: i + 1, Msg: err.Error()}
		}
		rows = append(rows, row)
	}
	return rows, nil
}

// checkSchema reads the schema_version of a JSON object file.
func checkSchema(path string, b []byte, recreate string) error {
	var v struct {
		SchemaVersion int `json:"schema_version"`
	}
	if err := json.Unmarshal(b, &v); err != nil {
		return &ReadError{File: path, Line: jsonLine(b, err), Msg: "not a ddlsim result file: " + err.Error()}
	}
	if v.SchemaVersion != SchemaVersion {
		return &SchemaError{File: path, Have: v.SchemaVersion, Recreate: recreate}
	}
	return nil
}

// jsonLine is the line of a JSON syntax error's offset (0 when the error has none).
func jsonLine(b []byte, err error) int {
	se, ok := err.(*json.SyntaxError)
	if !ok || se.Offset <= 0 || int(se.Offset) > len(b) {
		return 0
	}
	return bytes.Count(b[:se.Offset], []byte("\n")) + 1
}
