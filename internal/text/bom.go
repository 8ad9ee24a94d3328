package text

import "bytes"

// BOM is the UTF-8 byte-order mark, which some editors (notably on
// Windows) write before a file's first line.
const BOM = "\uFEFF"

// TrimBOM returns line without a leading byte-order mark: what every
// line reader does to a file's first line.
func TrimBOM(line []byte) []byte { return bytes.TrimPrefix(line, []byte(BOM)) }
