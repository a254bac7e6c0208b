package validate

import (
	"bytes"
	"encoding/json"
	"fmt"
)

// Marshal is the results file's text: JSON with one row (and one profile) per line, so a
// diff shows the rows that moved (indenting every value made the file four times the size),
// and a final newline. It reads back with encoding/json as any JSON does.
func (r *Results) Marshal() ([]byte, error) {
	var out bytes.Buffer
	fmt.Fprintf(&out, "{\"schema\":%d,\n\"rows\":", r.Schema)
	if err := marshalLines(&out, r.Rows); err != nil {
		return nil, err
	}
	out.WriteString(",\n\"constants\":")
	if err := marshalLines(&out, r.Constants); err != nil {
		return nil, err
	}
	out.WriteString("}\n")
	return out.Bytes(), nil
}

// marshalLines writes xs as a JSON array, one element per line.
func marshalLines[T any](out *bytes.Buffer, xs []T) error {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	out.WriteByte('[')
	for i := range xs {
		b.Reset()
		if err := enc.Encode(xs[i]); err != nil {
			return err
		}
		if i > 0 {
			out.WriteByte(',')
		}
		out.WriteByte('\n')
		out.Write(bytes.TrimSpace(b.Bytes()))
	}
	if len(xs) > 0 {
		out.WriteByte('\n')
	}
	out.WriteByte(']')
	return nil
}
