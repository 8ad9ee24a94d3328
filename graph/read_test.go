package graph

import (
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/medkb/medkb/internal/base"
	"github.com/medkb/medkb/internal/golden"
)

// unescape turns the golden-file escapes \t, \r, \xHH and \\ into bytes,
// so that inputs with tabs, CRLF and invalid UTF-8 stay readable.
func unescape(t *testing.T, s string) string {
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		if s[i] != '\\' || i+1 == len(s) {
			b.WriteByte(s[i])
			continue
		}
		i++
		switch s[i] {
		case 't':
			b.WriteByte('\t')
		case 'r':
			b.WriteByte('\r')
		case '\\':
			b.WriteByte('\\')
		case 'x':
			var v byte
			if _, err := fmt.Sscanf(s[i+1:i+3], "%02x", &v); err != nil {
				t.Fatalf("bad escape in %q", s)
			}
			b.WriteByte(v)
			i += 2
		default:
			t.Fatalf("bad escape \\%c in %q", s[i], s)
		}
	}
	return b.String()
}

func TestReadersGolden(t *testing.T) {
	golden.Run(t, "testdata/read.txt", func(t *testing.T, c *golden.Case) string {
		var out strings.Builder
		emit := func(v any) error {
			j, _ := json.Marshal(v)
			out.Write(j)
			out.WriteByte('\n')
			return nil
		}
		name := c.Args["name"]
		input := unescape(t, c.Input)
		var err error
		switch c.Cmd {
		case "triples":
			err = ReadTriples(strings.NewReader(input), name, func(tr base.Triple) error { return emit(tr) })
		case "entities":
			err = ReadEntities(strings.NewReader(input), name, func(e base.Entity) error { return emit(e) })
		case "hetionet-nodes":
			err = ReadHetionetNodes(strings.NewReader(input), name, func(e base.Entity) error { return emit(e) })
		case "hetionet-edges":
			nodes, edges, _ := strings.Cut(input, "====\n")
			var ents []base.Entity
			if err := ReadHetionetNodes(strings.NewReader(nodes), "nodes.tsv", func(e base.Entity) error { ents = append(ents, e); return nil }); err != nil {
				t.Fatal(err)
			}
			err = ReadHetionetEdges(strings.NewReader(edges), name, HetionetIDs(ents), func(tr base.Triple) error { return emit(tr) })
		case "detect":
			var k Kind
			k, err = DetectReader(strings.NewReader(input), name)
			out.WriteString(k.String() + "\n")
		default:
			t.Fatalf("unknown command %q", c.Cmd)
		}
		if err != nil {
			fmt.Fprintf(&out, "error: %v (bad input: %v)", err, errors.Is(err, ErrBadInput))
		}
		return out.String()
	})
}

func TestReadTriplesKeepsTwentyBadLines(t *testing.T) {
	var in strings.Builder
	for i := range 25 {
		fmt.Fprintf(&in, "{\"head\": \"h%d\"}\n", i)
	}
	in.WriteString(`{"head":"a","head_type":"T","relation":"r","tail":"b","tail_type":"T"}` + "\n")
	n := 0
	err := ReadTriples(strings.NewReader(in.String()), "many.jsonl", func(base.Triple) error { n++; return nil })
	var ie *InputError
	if !errors.As(err, &ie) || !errors.Is(err, ErrBadInput) {
		t.Fatalf("err = %v, want an *InputError wrapping ErrBadInput", err)
	}
	if ie.Bad != 25 || len(ie.Lines) != maxLineErrors || ie.Lines[19].Line != 20 || n != 1 {
		t.Fatalf("Bad=%d kept=%d last kept line=%d good=%d", ie.Bad, len(ie.Lines), ie.Lines[19].Line, n)
	}
	if !strings.HasSuffix(err.Error(), "... and 5 more") {
		t.Fatalf("message does not count the lines left out:\n%v", err)
	}
}

func TestReadTriplesStopsOnCallbackError(t *testing.T) {
	stop := errors.New("stop")
	in := "a\tT\tr\tb\tT\nc\tT\tr\td\tT\n"
	calls := 0
	err := ReadTriples(strings.NewReader(in), "x.tsv", func(base.Triple) error { calls++; return stop })
	if !errors.Is(err, stop) || calls != 1 || err.Error() != "x.tsv:1: stop" {
		t.Fatalf("err = %v after %d calls", err, calls)
	}
}

func TestReadTriplesSkipsOverlongLines(t *testing.T) {
	in := `{"head":"` + strings.Repeat("x", maxLine) + `"}` + "\n" +
		`{"head":"a","head_type":"T","relation":"r","tail":"b","tail_type":"T"}` + "\n"
	var got []base.Triple
	err := ReadTriples(strings.NewReader(in), "long.jsonl", func(t base.Triple) error { got = append(got, t); return nil })
	var ie *InputError
	if !errors.As(err, &ie) || ie.Lines[0].Line != 1 || !strings.Contains(ie.Lines[0].Msg, "longer than") || len(got) != 1 {
		t.Fatalf("err = %v, got %d triples", err, len(got))
	}
}
