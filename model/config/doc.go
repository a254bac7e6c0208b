// Package config is the scenario schema and its loader: YAML with human units (48GiB,
// 1.5ms, 10M), a hardware profile referenced by path or given inline, MySQL's own defaults,
// validation that reports every problem at once with file:line:col and the field's path,
// command-line overrides by path (--set mysql.innodb_buffer_pool_size=24GiB) and a hash of
// the effective configuration.
//
// Loading runs in fixed phases, each of which keeps going after an error:
//
//  1. parse the file into a yaml.Node tree and decode it against the schema structs
//     (decode.go) — unknown keys, wrong shapes and bad units are reported here with
//     positions;
//  2. read the hardware profile a path points to, relative to the scenario file, decoding
//     it with its own file name so its errors point into it;
//  3. apply overrides (set.go), parsed exactly like YAML values;
//  4. apply defaults (defaults.go), only to fields the user did not write;
//  5. validate (validate.go: a table of per-field rules; crosscheck.go: references and
//     orderings), placing each finding at the position the field was written and dropping
//     findings that merely repeat a decode error.
//
// The reference for users is docs/scenarios.md.
package config
