package embed

import "bytes"

// stem applies a light English suffix normalisation to a lowercased word,
// enough for plurals to meet their singular ("tumors", "tumor"; "studies",
// "study"; "patches", "patch"). It returns a prefix of w and, when the
// stem ends in a letter w does not have there, that letter; the stem is
// the prefix followed by the letter. Words of three bytes or fewer, and
// words that end in "ss", "us" or "is" ("mass", "virus", "analysis"), are
// left alone. The rules look at ASCII bytes only, so they also strip a
// final "s" from words of other Latin-script languages ("días"), which is
// harmless and often right.
func stem(w []byte) (prefix []byte, letter byte) {
	n := len(w)
	if n <= 3 || w[n-1] != 's' {
		return w, 0
	}
	switch {
	case bytes.HasSuffix(w, []byte("ies")) && n > 4:
		return w[:n-3], 'y'
	case bytes.HasSuffix(w, []byte("sses")),
		bytes.HasSuffix(w, []byte("xes")),
		bytes.HasSuffix(w, []byte("ches")),
		bytes.HasSuffix(w, []byte("shes")):
		return w[:n-2], 0
	}
	switch w[n-2] {
	case 's', 'u', 'i':
		return w, 0
	}
	return w[:n-1], 0
}

// isStopword reports whether an English word is too common to say
// anything about a text. Negations ("no", "not", "without") are kept:
// in clinical text they carry meaning.
func isStopword(w []byte) bool {
	switch string(w) {
	case "a", "about", "after", "all", "also", "am", "an", "and", "any",
		"are", "as", "at", "be", "been", "before", "being", "both", "but",
		"by", "can", "could", "did", "do", "does", "during", "each", "for",
		"from", "had", "has", "have", "having", "he", "her", "his", "how",
		"i", "if", "in", "into", "is", "it", "its", "may", "me", "might",
		"more", "most", "my", "of", "on", "or", "other", "our", "s", "she",
		"should", "so", "some", "such", "t", "than", "that", "the", "their",
		"them", "then", "there", "these", "they", "this", "those", "to",
		"very", "was", "we", "were", "what", "when", "where", "which",
		"while", "who", "whom", "whose", "will", "with", "would", "you",
		"your":
		return true
	}
	return false
}

// isStopRune reports whether a CJK character is a function word too
// common to be a feature on its own or in a bigram (的, 了, 是, ...).
func isStopRune(r rune) bool {
	switch r {
	case '的', '了', '是', '在', '和', '与', '及', '或', '等', '为', '之',
		'其', '也', '而', '并', '对', '于', '着', '把', '被', 'の', 'は',
		'が', 'を', 'に':
		return true
	}
	return false
}
