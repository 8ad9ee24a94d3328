// Package damage breaks files on purpose, for the tests that check how
// medkb meets a damaged store or index. It is imported by tests only.
package damage
