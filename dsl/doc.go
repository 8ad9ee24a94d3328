// Package dsl is medkb's query language: one read-only statement that
// names a retrieval pipeline, parsed into a syntax tree (Parse), printed
// back in canonical form (Statement.String), and checked and filled with
// defaults into the value the planner runs (Check).
//
//	EXPLAIN ANALYZE
//	RETRIEVE "chest pain, troponin 2.3 ng/mL"
//	USING bm25(k=50), vector(k=50)
//	WHERE tier IN (T1, T2) AND time >= "2018" AND meta.科室 = "心内科"
//	FUSE rrf(k=60)
//	EXPAND metapath "Disease -has_symptom-> Symptom" HOPS 2 LIMIT 20 WHEN entities >= 1
//	RERANK top 20
//	PACK budget 512 kmin 1 weights (2.5, 2.5, 1, 1) lambda 0.02 epsilon 0 floor 0.5 reliability 0 strategy ebm now "2026-01-01"
//	LIMIT 10
//
// Only RETRIEVE is required; the card's short form
// RETRIEVE "x" FUSE rrf EXPAND metapath "A -r-> B" PACK budget 512 kmin 1
// is a complete statement. Keywords are case-insensitive, "--" starts a
// comment, a trailing ";" is allowed, strings are double-quoted with the
// escapes \" \\ \n \t \uXXXX and may span lines, names are Unicode.
//
// # Three stages
//
// Parse checks syntax only and keeps what was written: numbers as text,
// strings decoded, every clause and value with its Pos (line, rune column,
// byte offset). The grammar lives in dsl/internal/grammar as participle
// productions; testdata/grammar.ebnf is its EBNF, kept as a golden so any
// change to the language shows in review.
//
// Statement.String prints one clause a line with canonical keywords and
// no defaults added; Parse(s.String()) gives back the same tree apart
// from positions (FuzzParse holds it to that).
//
// Check applies the static rules and fills defaults: k 1..10000 per arm
// (default 50, both arms when USING is absent); FUSE rrf k > 0 (60),
// weighted alpha 0..1 (0.5), docvote m 1..1000 (5), rrf(k=60) when FUSE is
// absent; EXPAND at most 32 metapaths, HOPS 1..6 (2), EXPAND LIMIT
// 1..1000 (20), WHEN entities >= 0..1000 (1); RERANK top 1..1000 (20;
// which reranker runs is the store's or the process's, never the
// statement's); PACK budget 1..1000000
// (required), kmin 0..100 (1), weights four numbers above 0 that never
// increase from T1 to T4 ((2.5, 2.5, 1, 1)), lambda >= 0 per year
// (0.02), epsilon 0..1 (0), floor 0..1 (0.5; the similarity floor, Sim =
// (1 - floor) * cosine + floor * tokens / 20), reliability 0..1 (0, off;
// utility times 1 - w + w * the document's evidence reliability, see
// docs/reliability.md), strategy ebm, paper,
// exact, fifo, semantic or uniform (ebm), now a date ("" = time of
// execution); LIMIT 1..1000000 (10, or no cap with PACK); query text
// non-empty and at most 64 KiB (a long clinical note); the statement at
// most 256 KiB, room for that text escaped (checked
// before parsing). The metapath and EXPAND LIMIT caps bound a statement's
// graph work: each metapath is linked and expanded, each path embedded,
// costed and packed.
// Query.Defaulted records which parameters took their default, for
// EXPLAIN. PACK's defaults and its strategy names belong to the packer
// (planner/pack): dsl imports them rather than restating them, so the
// language cannot drift from what it runs; the packer imports nothing of
// the language.
//
// # Named parameters
//
// A program never builds a statement out of a user's words. It writes
// $name where a value goes and hands the values over separately:
//
//	RETRIEVE $q WHERE patient = $p PACK budget $b
//
// The lexer reads $name as one token, and the grammar accepts it in the
// productions String and Number, so a parameter may stand wherever a
// string or a number may: the query text, WHERE values, every number,
// PACK now. Meta keys and metapaths use the production Literal, which
// takes a quoted string only: a key names a field rather than holding a
// value, and a metapath's errors point into its text, which a parameter
// does not have. In the tree a parameter is a Placeholder on its Str,
// Num or Value, with no value yet.
//
// Statement.Bind gives each placeholder its value from Args, after
// parsing, so a value is data in one slot of the tree and never text the
// parser sees: `P001" --` bound to $p is a patient id with a quote in it.
// A string goes where a string goes; a Go number, or a string spelling
// one (the command line has only strings), where a number goes; a WHERE
// value takes either. Check then reads the bound literals exactly as it
// reads written ones, ranges and dates included, and refuses a
// statement with a placeholder still unbound, so a forgotten Bind cannot
// slip through. Bind's errors are positioned like every other: a
// parameter with no value and a value of the wrong kind point at the
// parameter; a supplied name the statement does not use, or that is no
// name, points at the statement's start, the only place it has. Printing
// keeps $name, so Bind never changes Statement.String (FuzzBind holds it
// to that), and a parsed statement can be bound again with new values,
// one goroutine at a time. Query.Bindings lists the values for EXPLAIN.
//
// # Errors
//
// Every error is an *Error positioned on the offending token, rendered as
// the message, the source line and a caret (wide CJK runes count two
// cells). Syntax errors say what was found and what the grammar would
// have accepted there. That list is not hand-written: the parser is
// asked, by re-parsing the statement with each token of the vocabulary
// in the failing token's place, which ones it would consume. The lists
// therefore follow the grammar when it changes. On top come hints: a
// clause out of pipeline order ("FUSE must come before PACK"), a clause
// given twice, a statement not starting with RETRIEVE, a keyword
// misspelled by up to two edits ("did you mean FUSE?"), a bare word where
// a string belongs, a full-width character where an ASCII one belongs.
// When a token is wrong on its own (a stray character, an unterminated
// string, a bad escape, a negative number) and comes no later than the
// syntax error, that is the error reported, so the user always sees the
// first problem in the text.
//
// # Decisions
//
//   - Tier weights: the EBM-Pack paper has alpha >= beta >= gamma >= 1
//     with the T4 weight fixed at 1. Check accepts any four positive
//     weights that
//     never increase from T1 to T4; the paper's grid is a subset.
//   - Partial dates in WHERE stand for periods: time <= "2018" keeps all of
//     2018 (bound to 2018-12-31), time >= "2018" starts at 2018-01-01, and
//     = or != need a whole date. now "2026" means 2026-01-01.
//   - Numbers are digits with an optional fraction; negative numbers are
//     rejected at parse time (nothing in the language is negative today),
//     and so is exponent notation ("1e3"), with a message that says so.
//   - Unknown fields, fusion methods and strategies are syntax errors
//     (they are grammar keywords, which gives "did you mean"); Check
//     checks them again for hand-built trees.
//   - A USING arm or PACK option given twice is rejected by Parse, not
//     Check, because the tree has one slot for each.
//
// # Caveats
//
//   - EXPAND's options come in a fixed order (HOPS, LIMIT, WHEN), and a
//     LIMIT right after EXPAND's metapaths or HOPS is EXPAND's own:
//     RETRIEVE "x" EXPAND metapath "A -r-> B" LIMIT 5 keeps 5 paths and
//     returns the default 10 results. Write EXPAND's LIMIT and then the
//     statement's (LIMIT 20 LIMIT 5), or put WHEN or PACK between them.
//     EXPLAIN shows which is which.
//   - Metapath strings are opaque here; the graph package parses them.
//     Query.StringPos maps a rune offset inside one back to a line and
//     column of the statement, escapes included, and Query.ErrorAt renders
//     the error.
//   - Error diagnosis re-parses once per vocabulary token (about sixty),
//     after cutting every list before the error (WHERE conditions, IN
//     values, metapaths, PACK options) to its last element. A wrong
//     statement therefore costs a few milliseconds more than a right one,
//     even at 256 KiB; a right one pays nothing for it.
package dsl
