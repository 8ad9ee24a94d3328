package main

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"unicode/utf8"

	"github.com/peterh/liner"
	"github.com/spf13/cobra"
	"golang.org/x/term"

	"github.com/medkb/medkb"
	"github.com/medkb/medkb/dsl"
)

const replHelp = `Statements end with ';', may span lines, and several may share a line.
A blank line outside a statement does nothing; Ctrl-C drops the statement
being typed. Commands (also typed with a leading '.', e.g. .help) work
even inside a statement, which they leave pending:
  \help            this text
  \json on|off     print results as JSON
  \explain on|off  run statements as EXPLAIN ANALYZE
  \stats           store statistics
  \q               quit (also \quit, Ctrl-D)
History is kept in ~/.medkb_history (readable by you only; in the
temporary directory when there is no home directory).
Example:
  RETRIEVE "chest pain, troponin" FUSE rrf PACK budget 256 kmin 1;
`

func replCmd(e *env) *cobra.Command {
	return e.routedStoreFlags(&cobra.Command{
		Use:   "repl",
		Short: "interactive queries (read-only), with history and multi-line statements",
		Long: `Repl opens the store read-only and runs RETRIEVE statements as they are
typed, with line editing and history on a terminal. While it is idle and
an ingest waits for the store, it lets the store go; its next statement
opens it again, after the ingest.

` + replHelp + `
Piped (not a terminal), it reads statements and commands from standard
input without prompts and exits 1 when any of them failed, so that a
script sees it:
  printf 'RETRIEVE "troponin" LIMIT 3;\n' | medkb repl --db kb`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			db, err := e.connectOr(func() (*medkb.DB, error) {
				// An idle REPL lets the store go while an ingest waits for
				// it, rather than hold the ingest off until it times out.
				o := e.options(true)
				o.YieldToWriters = true
				return medkb.Open(e.db, o)
			})
			if err != nil {
				return err
			}
			defer db.Close()
			r := &repl{env: e, db: db}
			ctx := cmd.Context()
			if f, ok := e.stdin.(*os.File); ok && term.IsTerminal(int(f.Fd())) {
				return r.interactive(ctx)
			}
			return r.piped(ctx, e.stdin)
		},
	}, "")
}

type repl struct {
	env     *env
	db      kb
	json    bool
	explain bool
	pending strings.Builder
	// failed: a statement or command failed; piped input then exits 1,
	// so that a script sees it.
	failed bool
}

func (r *repl) interactive(ctx context.Context) error {
	ln := liner.NewLiner()
	defer ln.Close()
	ln.SetCtrlCAborts(true)
	hist := historyPath()
	if f, err := os.Open(hist); err == nil {
		ln.ReadHistory(f)
		f.Close()
	}
	defer func() {
		if err := saveHistory(hist, ln.WriteHistory); err != nil {
			fmt.Fprintln(r.env.stderr, "medkb: history not saved:", err)
		}
	}()
	fmt.Fprintf(r.env.stdout, "medkb repl on %s (read-only). \\help for help, \\q to quit.\n", r.env.db)
	for {
		prompt := "medkb> "
		if r.pending.Len() > 0 {
			prompt = "   ... "
		}
		line, err := ln.Prompt(prompt)
		if errors.Is(err, liner.ErrPromptAborted) {
			r.pending.Reset()
			continue
		}
		if err != nil { // io.EOF on Ctrl-D
			fmt.Fprintln(r.env.stdout)
			return nil
		}
		if strings.TrimSpace(line) != "" {
			ln.AppendHistory(line)
		}
		if quit := r.line(ctx, line); quit {
			return nil
		}
	}
}

func (r *repl) piped(ctx context.Context, in io.Reader) error {
	sc := bufio.NewScanner(in)
	sc.Buffer(make([]byte, 64<<10), 1<<20)
	quit := false
	for !quit && sc.Scan() {
		quit = r.line(ctx, sc.Text())
	}
	if rest := r.pending.String(); !quit && !blank(rest) {
		r.run(ctx, rest) // a last statement without ';'
	}
	if err := sc.Err(); err != nil {
		return err
	}
	if r.failed {
		return errSilent // each failure was reported as it happened
	}
	return nil
}

// line handles one input line and reports whether to quit. A blank line
// outside a statement does nothing; a line starting with \ (or, as
// sqlite users type, with .) is a command even inside a pending
// statement, which it leaves pending; every statement the line completes
// runs, so that several may share a line.
func (r *repl) line(ctx context.Context, line string) bool {
	trimmed := strings.TrimSpace(line)
	_, _, inString := splitStatements(r.pending.String())
	switch {
	case inString:
	case trimmed == "" && r.pending.Len() == 0:
		return false
	case strings.HasPrefix(trimmed, `\`):
		return r.command(trimmed)
	case strings.HasPrefix(trimmed, "."):
		return r.command(`\` + trimmed[1:])
	}
	r.pending.WriteString(line)
	r.pending.WriteByte('\n')
	stmts, rest, _ := splitStatements(r.pending.String())
	r.pending.Reset()
	if !blank(rest) {
		r.pending.WriteString(strings.TrimLeft(rest, " \t"))
	}
	for _, stmt := range stmts {
		if !blank(strings.TrimSuffix(stmt, ";")) {
			r.run(ctx, strings.TrimLeft(stmt, " \t"))
		}
	}
	return false
}

func (r *repl) command(cmd string) bool {
	out := r.env.stdout
	fields := strings.Fields(cmd)
	on := len(fields) > 1 && fields[1] == "on"
	switch fields[0] {
	case `\q`, `\quit`:
		return true
	case `\help`, `\h`, `\?`:
		fmt.Fprint(out, replHelp)
	case `\json`:
		r.json = on
		fmt.Fprintf(out, "json output %s\n", onOff(r.json))
	case `\explain`:
		r.explain = on
		fmt.Fprintf(out, "explain analyze %s\n", onOff(r.explain))
	case `\stats`:
		s, err := r.db.Stats()
		if err != nil {
			r.failed = true
			fmt.Fprintln(r.env.stderr, "error:", err)
			return false
		}
		fmt.Fprintf(out, "%d documents (T1 %d, T2 %d, T3 %d, T4 %d), %d chunks, %d entities, %d triples, generation %s\n",
			s.Docs, s.Tiers["T1"], s.Tiers["T2"], s.Tiers["T3"], s.Tiers["T4"], s.Chunks, s.Entities, s.Triples, s.Generation)
	default:
		r.failed = true
		fmt.Fprintf(r.env.stderr, "unknown command %s; \\help lists them\n", fields[0])
	}
	return false
}

// analyzePrefix turns a statement into its EXPLAIN ANALYZE (\explain on).
const analyzePrefix = "EXPLAIN ANALYZE "

func (r *repl) run(ctx context.Context, stmt string) {
	prefix := ""
	if r.explain && !strings.HasPrefix(strings.ToUpper(strings.TrimSpace(stmt)), "EXPLAIN") {
		prefix = analyzePrefix
	}
	res, err := r.db.QueryParams(ctx, prefix+stmt, nil)
	if err != nil {
		unprefix(err, prefix, stmt)
		r.failed = true
		fmt.Fprintln(r.env.stderr, "error:", err)
		return
	}
	if r.json {
		r.env.writeJSON(res)
		return
	}
	render(r.env.stdout, res)
}

// unprefix moves a statement error's position back onto stmt, the text
// the user typed, from the text with prefix put in front of it. A
// server's error holds only the rendered text: in it, the rendering of
// the error on the text sent is replaced by that on the text typed.
func unprefix(err error, prefix, stmt string) {
	if prefix == "" {
		return
	}
	shift := utf8.RuneCountInString(prefix)
	var de *dsl.Error
	var re *medkb.RemoteError
	switch {
	case errors.As(err, &de):
		if de.Pos.Line == 1 && de.Pos.Offset >= len(prefix) {
			de.Pos.Column -= shift
			de.Pos.Offset -= len(prefix)
			de.SourceLine = strings.TrimPrefix(de.SourceLine, prefix)
		}
	case errors.As(err, &re) && re.Code == "parse_error" && re.Line == 1 && re.Column > shift:
		_, rest, ok := strings.Cut(re.Message, fmt.Sprintf("%d:%d: ", re.Line, re.Column))
		if !ok {
			return
		}
		msg, _, _ := strings.Cut(rest, "\n")
		line, _, _ := strings.Cut(stmt, "\n")
		sent := &dsl.Error{Pos: dsl.Pos{Line: 1, Column: re.Column}, Msg: msg, SourceLine: prefix + line}
		typed := &dsl.Error{Pos: dsl.Pos{Line: 1, Column: re.Column - shift}, Msg: msg, SourceLine: line}
		re.Message = strings.Replace(re.Message, sent.Error(), typed.Error(), 1)
		re.Column = typed.Pos.Column
	}
}

func onOff(b bool) string {
	if b {
		return "on"
	}
	return "off"
}

// saveHistory writes the history file with write, readable by its owner
// only: statements name patients and findings. A file left readable by
// others (by an older medkb) is made private too.
func saveHistory(path string, write func(io.Writer) (int, error)) error {
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_TRUNC, 0o600)
	if err != nil {
		return err
	}
	if err := f.Chmod(0o600); err != nil {
		f.Close()
		return err
	}
	if _, err := write(f); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}

func historyPath() string {
	home, err := os.UserHomeDir()
	if err != nil {
		return filepath.Join(os.TempDir(), ".medkb_history")
	}
	return filepath.Join(home, ".medkb_history")
}
