//go:build !race

package medkb

// raceEnabled reports whether the tests run under the race detector.
const raceEnabled = false
