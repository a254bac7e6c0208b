// Package scenarios holds the shipped scenarios, sweep specs, hardware profiles and device
// presets, compiled into the binary so an installed ddlsim finds them by name from any
// directory (docs/scenarios.md, "Shipped files"). The files themselves are the reference;
// this package only embeds them.
package scenarios

import "embed"

// FS is every shipped YAML file, at its path relative to this directory
// ("quickstart.yaml", "profiles/8c-64g.yaml", "profiles/devices/nvme.yaml").
//
//go:embed *.yaml */*.yaml */*/*.yaml
var FS embed.FS
