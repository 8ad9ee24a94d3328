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

const replHelp = `Statements end with ';' and may span lines. Commands:
  \help            this text
  \json on|off     print results as JSON
  \explain on|off  run statements as EXPLAIN ANALYZE
  \stats           store statistics
  \q               quit (also Ctrl-D)
Example:
  RETRIEVE "chest pain, troponin" FUSE rrf PACK budget 256 kmin 1;
`

func replCmd(e *env) *cobra.Command {
	return e.storeFlags(&cobra.Command{
		Use:   "repl",
		Short: "interactive queries (read-only), with history and multi-line statements",
		Args:  cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			db, err := e.open(true)
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
	})
}

type repl struct {
	env     *env
	db      *medkb.DB
	json    bool
	explain bool
	pending strings.Builder
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
	for sc.Scan() {
		if r.line(ctx, sc.Text()) {
			return nil
		}
	}
	if rest := strings.TrimSpace(r.pending.String()); rest != "" {
		r.run(ctx, rest) // a last statement without ';'
	}
	return sc.Err()
}

// line handles one input line and reports whether to quit.
func (r *repl) line(ctx context.Context, line string) bool {
	trimmed := strings.TrimSpace(line)
	if r.pending.Len() == 0 && strings.HasPrefix(trimmed, `\`) {
		return r.command(trimmed)
	}
	r.pending.WriteString(line)
	r.pending.WriteByte('\n')
	if !strings.HasSuffix(trimmed, ";") {
		return false
	}
	stmt := r.pending.String()
	r.pending.Reset()
	r.run(ctx, stmt)
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
			fmt.Fprintln(r.env.stderr, "error:", err)
			return false
		}
		fmt.Fprintf(out, "%d documents (T1 %d, T2 %d, T3 %d, T4 %d), %d chunks, %d entities, %d triples, generation %s\n",
			s.Docs, s.Tiers["T1"], s.Tiers["T2"], s.Tiers["T3"], s.Tiers["T4"], s.Chunks, s.Entities, s.Triples, s.Generation)
	default:
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
	res, err := r.db.Query(ctx, prefix+stmt)
	if err != nil {
		unprefix(err, prefix)
		fmt.Fprintln(r.env.stderr, "error:", err)
		return
	}
	if r.json {
		r.env.writeJSON(res)
		return
	}
	render(r.env.stdout, res)
}

// unprefix moves a statement error's position back onto the text the
// user typed, from the text with prefix put in front of it.
func unprefix(err error, prefix string) {
	var de *dsl.Error
	if prefix == "" || !errors.As(err, &de) || de.Pos.Line != 1 || de.Pos.Offset < len(prefix) {
		return
	}
	de.Pos.Column -= utf8.RuneCountInString(prefix)
	de.Pos.Offset -= len(prefix)
	de.SourceLine = strings.TrimPrefix(de.SourceLine, prefix)
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
