package store

import (
	"errors"
	"os"

	"golang.org/x/sys/windows"
)

// tryLock takes an exclusive lock on f without waiting and reports
// whether it got it. It locks the byte range bbolt locks (offset -1, one
// byte), so it conflicts with bbolt's locks on the same file. Closing f
// releases it.
func tryLock(f *os.File) (bool, error) {
	return lockNB(f, windows.LOCKFILE_EXCLUSIVE_LOCK)
}

// tryLockShared is tryLock for a shared lock, which conflicts only with
// an exclusive one.
func tryLockShared(f *os.File) (bool, error) {
	return lockNB(f, 0)
}

func lockNB(f *os.File, how uint32) (bool, error) {
	const m1 = 1<<32 - 1 // -1 as a uint32
	err := windows.LockFileEx(windows.Handle(f.Fd()), how|windows.LOCKFILE_FAIL_IMMEDIATELY,
		0, 1, 0, &windows.Overlapped{Offset: m1, OffsetHigh: m1})
	if errors.Is(err, windows.ERROR_LOCK_VIOLATION) {
		return false, nil
	}
	return err == nil, err
}
