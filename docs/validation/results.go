// Package validation holds docs/validation/results.json, the committed outcome of `ddlsim
// validate --run` (docs/validation.md), compiled into the binary so every answer can state
// its validation record (internal/trust) wherever it runs. The file is written by ddlsim
// validate, never by hand.
package validation

import _ "embed"

// ResultsJSON is docs/validation/results.json as committed.
//
//go:embed results.json
var ResultsJSON []byte
