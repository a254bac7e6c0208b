package main

import (
	"encoding/json"
	"fmt"
	"io"
	"path/filepath"

	"github.com/ddlsim/ddlsim/internal/output"
	"github.com/ddlsim/ddlsim/internal/sweep"
	"github.com/ddlsim/ddlsim/internal/trust"
	"github.com/ddlsim/ddlsim/model/config"
)

// TrustFile is the trust block of a compare or sweep's results directory: the base
// scenario's (the points' overrides do not change which constants are measured; a point
// that changes the version or the DDL is not described by it).
const TrustFile = "trust.json"

// printTrust prints the base scenario's trust line (internal/trust) and returns its block.
func printTrust(w io.Writer, base *sweep.Base) *trust.Trust {
	sc, err := config.LoadWith(base.Path, base.Sets, nil)
	if err != nil {
		return nil // validated already by LoadBase; nothing to say if it no longer loads
	}
	tr := trust.Of(sc)
	fmt.Fprintln(w, tr.Line())
	return tr
}

// writeTrust writes the block into the results directory, beside manifest.json.
func writeTrust(dir string, tr *trust.Trust) error {
	if tr == nil {
		return nil
	}
	b, err := json.MarshalIndent(tr, "", "  ")
	if err != nil {
		return err
	}
	return output.WriteFileAtomic(filepath.Join(dir, TrustFile), append(b, '\n'))
}
