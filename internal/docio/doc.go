// Package docio reads documents from JSON Lines and TSV files, reporting
// every bad line by file:line and reason.
//
// The reader is strict where a silent guess would lose data (malformed
// JSON, invalid UTF-8, a missing id or text, an unknown tier, a date it
// cannot read, a non-finite vector) and lenient where it cannot: unknown
// fields are ignored, and meta values may be any JSON scalar (kept as
// text). The caller decides what a bad line means: by default medkb
// rejects the whole file before writing anything.
//
// TSV files are the NFCorpus layout, "id<TAB>text" with an optional
// header, so public retrieval benchmarks load without conversion.
//
// Read tells the two apart by the first character after blank space and
// a UTF-8 byte-order mark, by peeking, so that line numbers always count
// from the file's first line; blank lines are skipped, and the mark is
// dropped wherever the format is chosen.
package docio
