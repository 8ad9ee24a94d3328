//go:build unix

package main

import "golang.org/x/sys/unix"

// freeBytes is the space an unprivileged writer may still use on the file
// system holding path; ok is false when it cannot be told.
func freeBytes(path string) (free uint64, ok bool) {
	var st unix.Statfs_t
	if unix.Statfs(path, &st) != nil {
		return 0, false
	}
	return st.Bavail * uint64(st.Bsize), true
}
