// Package golden runs table tests kept in text files under testdata/, in
// the spirit of cockroachdb/datadriven: each case is a command line, its
// input, a "----" separator and the expected output, ending at a "===="
// line. Outputs may hold blank lines. `go test ./... -rewrite` rewrites the
// files with the outputs the code now produces, so a change of behaviour
// shows up as a diff in review. File does the same for an output kept
// whole in one file (an SVG, a Markdown table), and Section for one kept
// between two marker lines of a hand-written document (a table in docs/).
//
//	# a comment
//	explain budget=64
//	RETRIEVE "chest pain"
//	----
//	-> Pack ...
//	====
//
// Invariants: a rewrite keeps comments and command lines as written and
// replaces only outputs; cases come back one blank line apart. A file in
// that form that passes is rewritten byte for byte. Outputs are compared
// without their trailing newlines.
//
// Caveats: an output cannot hold a "====" line, nor an input a "----"
// line, and comments after the last case are dropped by a rewrite. Args
// is a map: the order of a command's key=value words is not kept. The
// -rewrite flag belongs to this package: every test binary that imports
// it accepts the flag, and one that does not import it rejects it.
package golden
