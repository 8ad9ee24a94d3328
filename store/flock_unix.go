//go:build unix

package store

import (
	"errors"
	"os"
	"syscall"
)

// tryLock takes an exclusive advisory lock on f without waiting and
// reports whether it got it. It conflicts with bbolt's locks on the same
// file (flock, shared or exclusive), also those of this process taken
// through another open of the file. Closing f releases it.
func tryLock(f *os.File) (bool, error) {
	return flockNB(f, syscall.LOCK_EX)
}

// tryLockShared is tryLock for a shared lock, which conflicts only with
// an exclusive one.
func tryLockShared(f *os.File) (bool, error) {
	return flockNB(f, syscall.LOCK_SH)
}

func flockNB(f *os.File, how int) (bool, error) {
	err := syscall.Flock(int(f.Fd()), how|syscall.LOCK_NB)
	if errors.Is(err, syscall.EWOULDBLOCK) {
		return false, nil
	}
	return err == nil, err
}
