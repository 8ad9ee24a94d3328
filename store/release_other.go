//go:build !linux

package store

// releaseMapped is a no-op where medkb does not manage resident pages.
func releaseMapped([]byte, uintptr, int64) {}

func releaseRange(_, _, _ uintptr, _ int64) {}
