package output

import "runtime/debug"

// Release is the release this source tree is.
const Release = "0.1.0-dev"

// Version identifies the ddlsim build in every output that names it: the run header,
// summary.json's meta, config.yaml's comment, each compare/sweep row and manifest, reports and
// crash reports. It is Release, plus "+" and the first 12 hex digits of the VCS revision (and
// ".dirty" for a modified tree) when the binary was built from a checkout. It depends only on
// the binary, never on the run, so output stays byte-identical between runs.
var Version = buildVersion(debug.ReadBuildInfo())

func buildVersion(bi *debug.BuildInfo, ok bool) string {
	v := Release
	if !ok {
		return v
	}
	rev, modified := "", false
	for _, s := range bi.Settings {
		switch s.Key {
		case "vcs.revision":
			rev = s.Value
		case "vcs.modified":
			modified = s.Value == "true"
		}
	}
	if len(rev) > 12 {
		rev = rev[:12]
	}
	if rev != "" {
		v += "+" + rev
		if modified {
			v += ".dirty"
		}
	}
	return v
}
