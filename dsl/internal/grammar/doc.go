// Package grammar is the concrete syntax of medkb's query language: the
// lexer rules, the participle productions, and a parser that works on
// token slices.
//
// It is separate from package dsl so that the productions can carry the
// names the EBNF shows (Statement, Retrieve, PackOption...) without
// colliding with dsl's syntax tree, and so that nothing outside dsl
// depends on participle's types.
//
// Invariants:
//   - The lexer is total. Its last rules take an unterminated string and
//     any single character, so every valid UTF-8 input becomes tokens and
//     every problem reaches dsl as a token with a position, never as a
//     lexer failure with participle's wording.
//   - Parse takes a token slice rather than text. dsl lexes once and then
//     parses that slice, and also variants of it with one token swapped,
//     to find out what the grammar would have accepted where parsing
//     stopped ("expected FUSE, PACK or end of statement").
//   - Words and Puncts list every literal of the grammar; a test checks
//     them against the EBNF, so a new keyword cannot be forgotten by the
//     error messages.
//
// Caveats: keywords are matched case-insensitively but are not reserved.
// A name that happens to be a keyword is still a valid value
// (WHERE type = limit). The EXPAND options come in a fixed order, so a LIMIT
// right after them is EXPAND's, not the statement's.
package grammar
