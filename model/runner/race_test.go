//go:build race

package runner_test

// raceEnabled: the race detector's shadow memory makes RSS measurements meaningless.
const raceEnabled = true
