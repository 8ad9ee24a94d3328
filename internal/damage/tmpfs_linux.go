package damage

import (
	"os"
	"syscall"
	"testing"
)

// Tmpfs mounts a tmpfs of the given size (e.g. "4m") at dir, a disk a
// test can fill, or skips the test where that is not permitted (not
// root, no CAP_SYS_ADMIN). It is unmounted when the test ends.
func Tmpfs(t testing.TB, dir, size string) {
	t.Helper()
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := syscall.Mount("tmpfs", dir, "tmpfs", 0, "size="+size); err != nil {
		t.Skipf("cannot mount a tmpfs to fill (%v); needs root", err)
	}
	t.Cleanup(func() { syscall.Unmount(dir, syscall.MNT_DETACH) })
}

// GrowTmpfs resizes the tmpfs at dir, giving a full disk room again.
func GrowTmpfs(t testing.TB, dir, size string) {
	t.Helper()
	if err := syscall.Mount("tmpfs", dir, "tmpfs", syscall.MS_REMOUNT, "size="+size); err != nil {
		t.Fatal(err)
	}
}
