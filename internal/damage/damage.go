package damage

import (
	"os"
	"testing"
)

// Garble XORs every step-th byte of the file at path from off on with
// 0x5a, sparing the last 4 bytes (where the formats medkb reads keep a
// checksum), so that the damage is inside what the checksum covers.
func Garble(t testing.TB, path string, off, step int) {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	for i := off; i < len(b)-4; i += step {
		b[i] ^= 0x5a
	}
	if err := os.WriteFile(path, b, 0o600); err != nil {
		t.Fatal(err)
	}
}
