// Package docio reads documents from JSON Lines and TSV files, reporting
// every bad line by file:line and reason.
//
// The reader is strict where a silent guess would lose data or let one
// record bloat the store (malformed JSON, invalid UTF-8, a missing id or a
// text of only white space, a field over its limit, control characters in
// an identifier, an unknown tier, a date it cannot read, a non-finite or
// all-zero vector; see base.Doc.Validate) and lenient where it cannot:
// unknown fields are ignored, and meta values may be any JSON scalar (kept
// as text). The caller decides what a bad line means: by default medkb
// rejects the whole file before writing anything.
//
// Scan hands each good document to a callback instead of keeping it, so a
// file of any length is read in constant memory; the callback may count a
// line as bad for a reason only it can judge (the store's dimension) by
// returning a *LineError. Read keeps them all, for small inputs.
//
// TSV files are the NFCorpus layout, "id<TAB>text" with an optional
// header, so public retrieval benchmarks load without conversion.
//
// Read tells the two apart by the first character after blank space and
// a UTF-8 byte-order mark, by peeking, so that line numbers always count
// from the file's first line; blank lines are skipped, and the mark is
// dropped wherever the format is chosen.
//
// LineReader and BadLines are the one line reader and bad-line record of
// medkb's line-based inputs: the graph readers and the question files
// use them too, each with its own policy for a line it cannot read (here
// an over-long line fails the read; graph skips it as one bad line).
package docio
