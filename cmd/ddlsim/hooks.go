package main

// Hooks the lead wires to packages this directory must not depend on yet.
//
// policyNames lists the registered buffer-pool policies (the policies registry); while it is
// nil, `list` says so and validation accepts any policy name (the registry rejects unknown
// names when the run starts).
var policyNames func() []string

// policyDoc, if set, gives a one-line description of a policy for `ddlsim list`.
var policyDoc func(name string) string
