// Package damage breaks files and fills disks on purpose, for the tests
// that check how medkb meets a damaged store or index and a full disk.
// It is imported by tests only.
package damage
