package main

import (
	"github.com/ddlsim/ddlsim/model/config"
	"github.com/ddlsim/ddlsim/policies"
)

// policyNames lists the registered buffer-pool policies (the policies registry).
var policyNames = policies.Names

// policyDoc gives a one-line description of a policy for `ddlsim list`.
var policyDoc = func(name string) string {
	return map[string]string{
		"fullscan": "community 8.0 before 8.0.23: whole-list scans, FLUSH_WRITE restarts from the tail",
		"lazy":     "8.0.23+ lazy drop: space versions, no scan for drop/truncate; flushes still scan",
		"indexed":  "Faster DDL (inferred): per-space/observer page index, batch flush, short holds",
	}[name]
}

func init() { config.KnownPolicies = policies.Names }
