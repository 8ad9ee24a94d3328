package dsl

// Quote returns s as a string literal of the query language, so programs
// can build statements from arbitrary text.
func Quote(s string) string { return quote(s) }
