package store

import "time"

// DefaultLockTimeout is how long Open waits for another process's lock.
const DefaultLockTimeout = 10 * time.Second

// Options configure Open. A nil *Options means all defaults.
type Options struct {
	// ReadOnly opens the generation read-only with a shared lock. A
	// read-only open never creates a store. Zero: read-write, created if
	// missing.
	ReadOnly bool
	// LockTimeout bounds the wait for another process's lock. Zero means
	// DefaultLockTimeout; it is never infinite.
	LockTimeout time.Duration
	// Generation opens this generation name (e.g. "gen-000002") instead of
	// the one CURRENT names. Zero: CURRENT's.
	Generation string
}

func (o *Options) lockTimeout() time.Duration {
	if o == nil || o.LockTimeout <= 0 {
		return DefaultLockTimeout
	}
	return o.LockTimeout
}
