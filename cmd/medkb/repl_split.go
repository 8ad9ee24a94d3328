package main

import "strings"

// splitStatements cuts src at each ';' that ends a statement: one outside
// a string literal ("..." with \ escaping the next character, which may
// span lines) and outside a "--" comment, as the query language reads
// them. It returns the complete statements, each with its ';', and the
// rest; open says whether the rest ends inside a string literal.
func splitStatements(src string) (stmts []string, rest string, open bool) {
	start := 0
	for i := 0; i < len(src); i++ {
		switch {
		case src[i] == '"':
			j := i + 1
			for ; j < len(src) && src[j] != '"'; j++ {
				if src[j] == '\\' {
					j++
				}
			}
			if j >= len(src) {
				return stmts, src[start:], true
			}
			i = j
		case strings.HasPrefix(src[i:], "--"):
			nl := strings.IndexByte(src[i:], '\n')
			if nl < 0 {
				return stmts, src[start:], false
			}
			i += nl
		case src[i] == ';':
			stmts = append(stmts, src[start:i+1])
			start = i + 1
		}
	}
	return stmts, src[start:], false
}

// blank says whether src holds nothing but white space and comments.
func blank(src string) bool {
	for _, line := range strings.Split(src, "\n") {
		line = strings.TrimSpace(line)
		if line != "" && !strings.HasPrefix(line, "--") {
			return false
		}
	}
	return true
}
