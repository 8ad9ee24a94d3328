package text

import (
	"strings"
	"unicode"
	"unicode/utf8"
)

// Sentences splits s into sentences, English and Chinese; see the package
// documentation for the rules. Each sentence keeps its closing punctuation
// and is trimmed of surrounding space; empty pieces are dropped.
func Sentences(s string) []string {
	var out []string
	start, lineStart := 0, 0
	for i := 0; i < len(s); {
		r, size := utf8.DecodeRuneInString(s[i:])
		end := i + size
		switch {
		case r == '\n' || r == '\r':
			out = appendTrimmed(out, s[start:i])
			start, lineStart = end, end
		case isCJKTerminator(r):
			end = skipClosers(s, skipTerminators(s, end))
			out = appendTrimmed(out, s[start:end])
			start = end
		case isASCIITerminator(r):
			end = skipClosers(s, skipTerminators(s, end))
			if endsSentence(s, lineStart, i, end) {
				out = appendTrimmed(out, s[start:end])
				start = end
			}
		}
		i = end
	}
	return appendTrimmed(out, s[start:])
}

func appendTrimmed(out []string, piece string) []string {
	if piece = strings.TrimSpace(piece); piece != "" {
		out = append(out, piece)
	}
	return out
}

func isCJKTerminator(r rune) bool {
	switch r {
	case '。', '！', '？', '；', '…':
		return true
	}
	return false
}

func isASCIITerminator(r rune) bool {
	return r == '.' || r == '!' || r == '?' || r == ';'
}

// skipTerminators moves past a run of terminators ("...", "?!", "……").
func skipTerminators(s string, i int) int {
	for i < len(s) {
		r, size := utf8.DecodeRuneInString(s[i:])
		if !isCJKTerminator(r) && !isASCIITerminator(r) {
			break
		}
		i += size
	}
	return i
}

// skipClosers moves past closing quotes and brackets, which belong to the
// sentence they close.
func skipClosers(s string, i int) int {
	for i < len(s) {
		r, size := utf8.DecodeRuneInString(s[i:])
		if !strings.ContainsRune(`"')]”’）」』】》`, r) {
			break
		}
		i += size
	}
	return i
}

// endsSentence decides whether the English terminator run s[dot:end] ends
// a sentence. lineStart is where the current line begins.
func endsSentence(s string, lineStart, dot, end int) bool {
	if end == len(s) {
		return true
	}
	next, _ := utf8.DecodeRuneInString(s[end:])
	if !unicode.IsSpace(next) && !IsCJK(next) {
		return false // inside a token: 2.3, e.g., mg/dL.x
	}
	if strings.ContainsAny(s[dot:end], "!?;") {
		return true
	}
	after := strings.TrimLeftFunc(s[end:], unicode.IsSpace)
	first, _ := utf8.DecodeRuneInString(after)
	if after == "" || strings.ContainsAny(s[end:len(s)-len(after)], "\n\r") {
		return true
	}
	word := wordBefore(s, dot)
	switch {
	case dot > lineStart && s[dot-1] == ' ':
		return true // a stop set apart, as tokenised text writes it: "disease . without"
	case isListNumber(s, lineStart, dot, word):
		return false
	case isAbbreviation(word, first):
		return false
	case isLowerWord(after):
		return false // "5 mg. daily": the sentence goes on
	}
	return true
}

// isLowerWord reports whether s starts with a word in small letters only:
// "daily" continues a sentence, "eGFR" and "pH" start one.
func isLowerWord(s string) bool {
	n := 0
	for _, r := range s {
		if !unicode.IsLetter(r) {
			break
		}
		if !unicode.IsLower(r) {
			return false
		}
		n++
	}
	return n > 0
}

// wordBefore returns the letters, digits and inner periods just before i.
func wordBefore(s string, i int) string {
	j := i
	for j > 0 {
		r, size := utf8.DecodeLastRuneInString(s[:j])
		if r != '.' && !unicode.IsLetter(r) && !unicode.IsDigit(r) {
			break
		}
		j -= size
	}
	return s[j:i]
}

// isListNumber reports whether word, ending at dot, is list numbering such
// as "1." that opens its line, or an inline one: one or two digits after
// a colon or semicolon with the item right after the dot
// ("诊断意见：1.肺炎；2.胸腔积液", but not "HR: 120. Irregular rhythm").
func isListNumber(s string, lineStart, dot int, word string) bool {
	if word == "" || len(word) > 3 || strings.TrimFunc(word, unicode.IsDigit) != "" {
		return false
	}
	// Trim from the right only: trimming a line's leading space at every
	// number on it would make a long indented line quadratic.
	before := strings.TrimRightFunc(s[lineStart:dot-len(word)], unicode.IsSpace)
	if before == "" {
		return true
	}
	r, _ := utf8.DecodeLastRuneInString(before)
	next, _ := utf8.DecodeRuneInString(s[dot+1:])
	return len(word) <= 2 && strings.ContainsRune(":;：；", r) && !unicode.IsSpace(next)
}

// isAbbreviation reports whether a period after word is part of an
// abbreviation. "No." counts only before a number ("No. 3 bed").
func isAbbreviation(word string, next rune) bool {
	switch strings.ToLower(word) {
	case "dr", "mr", "mrs", "ms", "prof", "sr", "jr", "st", "vs",
		"approx", "e.g", "i.e", "cf", "fig", "figs":
		return true
	case "no":
		return unicode.IsDigit(next)
	}
	return false
}
