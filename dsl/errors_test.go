package dsl

import (
	"strings"
	"testing"
)

func TestErrorRendering(t *testing.T) {
	long := strings.Repeat("abcdefghij", 12) // 120 columns
	for _, c := range []struct {
		name string
		err  Error
		want string
	}{
		{"no source", Error{Pos: Pos{1, 5, 4}, Msg: "m"}, "1:5: m"},
		{"blank source", Error{Pos: Pos{1, 1, 0}, Msg: "m", SourceLine: " \t "}, "1:1: m"},
		{"leading blanks trimmed", Error{Pos: Pos{1, 5, 4}, Msg: "m", SourceLine: "    FUZE"}, "1:5: m\n  FUZE\n  ^"},
		{"tabs become spaces", Error{Pos: Pos{1, 4, 3}, Msg: "m", SourceLine: "\ta\tb"}, "1:4: m\n  a b\n    ^"},
		{"control characters", Error{Pos: Pos{1, 3, 2}, Msg: "m", SourceLine: "a\x01b"}, "1:3: m\n  a b\n    ^"},
		{"wide runes", Error{Pos: Pos{1, 4, 6}, Msg: "m", SourceLine: "中文 x"}, "1:4: m\n  中文 x\n       ^"},
		{"full-width comma", Error{Pos: Pos{1, 3, 2}, Msg: "m", SourceLine: "T1，T2"}, "1:3: m\n  T1，T2\n    ^"},
		{"past the end", Error{Pos: Pos{1, 9, 8}, Msg: "m", SourceLine: "RETRIEVE"}, "1:9: m\n  RETRIEVE\n          ^"},
		{"trailing blanks dropped", Error{Pos: Pos{1, 3, 2}, Msg: "m", SourceLine: "ab   "}, "1:3: m\n  ab\n    ^"},
		{"invalid UTF-8 shown as U+FFFD", Error{Pos: Pos{1, 2, 1}, Msg: "m", SourceLine: "a\xffb"}, "1:2: m\n  a\uFFFDb\n   ^"},
		{"long line, caret near the start", Error{Pos: Pos{1, 3, 2}, Msg: "m", SourceLine: long},
			"1:3: m\n  " + long[:76] + "...\n    ^"},
		{"long line, caret near the end", Error{Pos: Pos{1, 115, 114}, Msg: "m", SourceLine: long},
			"1:115: m\n  ..." + long[114-25:] + "\n  " + strings.Repeat(" ", 28) + "^"},
		{"long line, caret in the middle", Error{Pos: Pos{1, 61, 60}, Msg: "m", SourceLine: long},
			"1:61: m\n  ..." + long[60-25:60-25+76] + "...\n  " + strings.Repeat(" ", 28) + "^"},
	} {
		if got := c.err.Error(); got != c.want {
			t.Errorf("%s:\ngot\n%s\nwant\n%s", c.name, got, c.want)
		}
	}
}
