package text

// WidthFold maps the full-width forms of ASCII (U+FF01..U+FF5E: ％，：Ａ１)
// to ASCII and the ideographic space U+3000 to a space; other runes are
// returned unchanged. Chinese text mixes both widths for the same
// characters.
func WidthFold(r rune) rune {
	switch {
	case r >= 0xFF01 && r <= 0xFF5E:
		return r - 0xFEE0
	case r == 0x3000:
		return ' '
	}
	return r
}
