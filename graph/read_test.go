package graph

import (
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/medkb/medkb/internal/base"
	"github.com/medkb/medkb/internal/docio"
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
	if ie.Bad != 25 || len(ie.Lines) != docio.MaxReported || ie.Lines[19].Line != 20 || n != 1 {
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
	if !errors.As(err, &ie) || ie.Lines[0].Line != 1 || !strings.Contains(ie.Lines[0].Reason, "longer than") || len(got) != 1 {
		t.Fatalf("err = %v, got %d triples", err, len(got))
	}
}

// readerLines returns the numbers of the lines of in that a lineReader
// hands on or reports: those not blank (white space only) once a
// leading byte-order mark and a trailing "\r" are removed. header is 1
// when one of them is valid UTF-8, so that a reader takes the first such
// line as its header, else 0.
func readerLines(in string) (nums []int, header int) {
	for i, l := range strings.Split(in, "\n") {
		if i == 0 {
			l = strings.TrimPrefix(l, "\uFEFF")
		}
		if l = strings.TrimSuffix(l, "\r"); strings.TrimSpace(l) != "" {
			nums = append(nums, i+1)
			if utf8.ValidString(l) {
				header = 1
			}
		}
	}
	return nums, header
}

// badLineCount checks that err, a reader's result, is nil or an
// *InputError about file name wrapping ErrBadInput that keeps the first
// docio.MaxReported bad lines in file order, each one of lines; it returns
// how many lines were bad.
func badLineCount(t *testing.T, err error, name string, lines []int) int {
	t.Helper()
	if err == nil {
		return 0
	}
	var ie *InputError
	if !errors.As(err, &ie) || !errors.Is(err, ErrBadInput) {
		t.Fatalf("error %v is not an *InputError wrapping ErrBadInput", err)
	}
	if ie.File != name || ie.Bad < 1 || len(ie.Lines) != min(ie.Bad, docio.MaxReported) {
		t.Fatalf("InputError file %q, %d bad, %d kept", ie.File, ie.Bad, len(ie.Lines))
	}
	last := 0
	for _, l := range ie.Lines {
		if _, ok := slices.BinarySearch(lines, l.Line); !ok || l.Line <= last || l.File != name || l.Reason == "" {
			t.Fatalf("bad line %+v after line %d is out of order or not a line of the input", l, last)
		}
		last = l.Line
	}
	return ie.Bad
}

// checkTrimmed fails unless each of vals is valid UTF-8 without
// surrounding space.
func checkTrimmed(t *testing.T, what any, vals ...string) {
	t.Helper()
	for _, v := range vals {
		if !utf8.ValidString(v) || strings.TrimSpace(v) != v {
			t.Fatalf("%+v: %q is not trimmed valid UTF-8", what, v)
		}
	}
}

// checkReadTriple fails unless tr is a triple a reader may deliver:
// trimmed non-empty names, types and relation that are names, and a
// finite weight >= 0. The source is left to the caller: ReadTriples trims
// it, ReadHetionetEdges keeps the file's base name as it is.
func checkReadTriple(t *testing.T, tr base.Triple) {
	t.Helper()
	checkTrimmed(t, tr, tr.Head, tr.HeadType, tr.Relation, tr.Tail, tr.TailType)
	if tr.Head == "" || tr.Tail == "" || !IsName(tr.HeadType) || !IsName(tr.Relation) || !IsName(tr.TailType) {
		t.Fatalf("%+v: empty name, or a type or relation that is not a name", tr)
	}
	if math.IsNaN(tr.Weight) || math.IsInf(tr.Weight, 0) || tr.Weight < 0 {
		t.Fatalf("%+v: weight is not a finite number >= 0", tr)
	}
}

// FuzzReadTriples checks that every triple ReadTriples delivers is valid
// (trimmed non-empty names, types and relation that are names, a finite
// weight >= 0, a trimmed source), that the only error is an *InputError
// wrapping ErrBadInput, and that good and bad lines add up to the
// non-blank lines, less at most a TSV header.
func FuzzReadTriples(f *testing.F) {
	for _, s := range []string{
		`{"Disease": "感冒", "Syndrome": "风寒感冒证", "Relation": "DIS2SYN"}` + "\n" +
			`{"Formula": "荆防败毒散", "Syndrome": "风寒感冒证", "Relation": "SYN2FOR"}` + "\n" +
			`{"Herb": "荆芥", "Formula": "荆防败毒散", "Relation": "HAS_HERB"}` + "\n" +
			`{"Formula": "荆防败毒散", "Relation": "HAS_HERB"}` + "\n",
		`{"head": " heart failure ", "head_type": "Disease", "relation": "has_symptom", "tail": "dyspnea", "tail_type": "Symptom", "source": "note", "weight": 0.5}` + "\r\n" +
			"\r\n" +
			`{"head": "a", "head_type": "Side Effect", "relation": "r", "tail": "b", "tail_type": "T"}` + "\r\n" +
			`{"head": "a", "head_type": "T", "relation": "r", "tail": "b", "tail_type": "T", "weight": 1e400}` + "\r\n",
		"\uFEFFTail_Type\tTail\tRelation\tHead\tHead_Type\tWeight\r\n" +
			"Symptom\tdyspnea\thas_symptom\theart failure\tDisease\t0.25\r\n" +
			"Symptom\tcough\thas_symptom\r\n",
		"metformin\tDrug\ttreats\ttype 2 diabetes\tDisease\tlabel\t1.5\n" +
			" \t \n" +
			"aspirin\tDrug\ttreats\theadache\tDisease\t\tNaN\n",
		"感冒\t疾病\t表现为\t发热\t症状\n风寒感冒证\t证候\t治法\t辛温解表\t治法\t中医内科学\t1\n",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, in string) {
		good := 0
		err := ReadTriples(strings.NewReader(in), "kg", func(tr base.Triple) error {
			checkReadTriple(t, tr)
			checkTrimmed(t, tr, tr.Source)
			good++
			return nil
		})
		lines, _ := readerLines(in)
		bad := badLineCount(t, err, "kg", lines)
		if n := good + bad; n > len(lines) || n < len(lines)-1 {
			t.Fatalf("%d good and %d bad lines of %d non-blank", good, bad, len(lines))
		}
	})
}

// FuzzReadEntities checks that every entity ReadEntities delivers has a
// trimmed non-empty name, a type that is a name and trimmed non-empty
// aliases, that the only error is an *InputError wrapping ErrBadInput,
// and that good and bad lines add up to the non-blank lines.
func FuzzReadEntities(f *testing.F) {
	for _, s := range []string{
		`{"name": "heart failure", "type": "Disease", "aliases": ["HF", "cardiac failure"]}` + "\n" +
			`{"name": "metformin", "type": "Drug", "source": "ignored"}` + "\n",
		`{"name": "感冒", "type": "疾病", "aliases": ["伤风", " 冒风 "]}` + "\r\n\r\n" +
			`{"name": " 荆芥 ", "type": "中药"}` + "\r\n",
		`{"name": "", "type": "T"}` + "\n" +
			`{"name": "x", "type": "Side Effect"}` + "\n" +
			`{"name": "x", "type": "T", "aliases": ["a", " "]}` + "\n" +
			`{"name": "x"` + "\n",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, in string) {
		good := 0
		err := ReadEntities(strings.NewReader(in), "ents", func(e base.Entity) error {
			checkTrimmed(t, e, append([]string{e.Name, e.Type}, e.Aliases...)...)
			if e.Name == "" || !IsName(e.Type) || slices.Contains(e.Aliases, "") {
				t.Fatalf("%+v: empty name or alias, or a type that is not a name", e)
			}
			good++
			return nil
		})
		lines, _ := readerLines(in)
		if bad := badLineCount(t, err, "ents", lines); good+bad != len(lines) {
			t.Fatalf("%d good and %d bad lines of %d non-blank", good, bad, len(lines))
		}
	})
}

// FuzzReadHetionetNodes checks that ReadHetionetNodes either rejects the
// header with ErrUnknownFormat before delivering anything, or delivers
// entities with trimmed non-empty names, types that are names and a first
// alias "Type::ID" unique in the file, a second alias only for a shared
// name, no two entities with one type and name (no node is lost), and
// that HetionetIDs maps each id alias back to its entity; bad lines come
// in an *InputError and, with the good ones, add up to the non-blank
// lines less the header.
func FuzzReadHetionetNodes(f *testing.F) {
	for _, s := range []string{
		"id\tname\tkind\r\n" +
			"Compound::DB00014\tGoserelin\tCompound\r\n" +
			"Gene::2867\tFFAR2\tGene\r\n" +
			"Gene::100\tFFAR2\tGene\r\n" +
			"Side Effect::C0000737\tAbdominal pain\tSide Effect\r\n",
		"compoundId:ID(Compound)\tname\tinchikey\n" +
			"DB00014\tGoserelin\tBLCLNMBMMGCOAS\n" +
			"\n" +
			"DB00035\t Desmopressin \tNFLWUMRGJYTJIN\n",
		"id\tname\tkind\n中药::H1\t荆芥\t中药\n中药::H2\t荆芥\t中药\n方剂::F1\t荆防败毒散\t方剂\n",
		"id\tname\tkind\nGene::1\tA\tCompound\nGene::1\tA1BG\tGene\nGene::1\tagain\tGene\nGene::\tD\tGene\nGene::2\t\tGene\n",
		"Gene::1\tA1BG\tGene\n",
		"caf\xe9\nid\tname\tkind\nGene::1\tA1BG\tGene\n",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, in string) {
		var ents []base.Entity
		err := ReadHetionetNodes(strings.NewReader(in), "nodes.tsv", func(e base.Entity) error {
			ents = append(ents, e)
			return nil
		})
		if errors.Is(err, ErrUnknownFormat) {
			if len(ents) > 0 {
				t.Fatalf("%d nodes delivered before a bad header", len(ents))
			}
			return
		}
		keys := map[[2]string]bool{}
		for _, e := range ents {
			checkTrimmed(t, e, append([]string{e.Name, e.Type}, e.Aliases...)...)
			id, isID := strings.CutPrefix(e.Aliases[0], e.Type+"::")
			if e.Name == "" || !IsName(e.Type) || !isID || id == "" || len(e.Aliases) > 2 {
				t.Fatalf("%+v: empty name, a type that is not a name or bad aliases", e)
			}
			if len(e.Aliases) == 2 && e.Name != e.Aliases[1]+" ("+id+")" {
				t.Fatalf("%+v: a shared name must read \"NAME (ID)\"", e)
			}
			if keys[[2]string{e.Type, e.Name}] {
				t.Fatalf("%+v: a second entity with this type and name", e)
			}
			keys[[2]string{e.Type, e.Name}] = true
		}
		ids := HetionetIDs(ents)
		for _, e := range ents {
			if ids[e.Aliases[0]] != e.Name {
				t.Fatalf("%+v: HetionetIDs maps %q to %q", e, e.Aliases[0], ids[e.Aliases[0]])
			}
		}
		lines, header := readerLines(in)
		bad := badLineCount(t, err, "nodes.tsv", lines)
		if len(ents)+bad != len(lines)-header {
			t.Fatalf("%d good and %d bad lines of %d non-blank besides the header", len(ents), bad, len(lines)-header)
		}
	})
}

// FuzzReadHetionetEdges checks, over a fixed node set, that
// ReadHetionetEdges fails on a bad file name or header (ErrBadInput or
// ErrUnknownFormat) before delivering anything, and otherwise delivers
// triples that are valid, whose ends are nodes of their types, whose
// relation is the file name's verb and whose source is the file's base
// name; each good line gives one triple (two for an undirected verb), and
// with the bad lines, reported in an *InputError, they add up to the
// non-blank lines less the header.
func FuzzReadHetionetEdges(f *testing.F) {
	nodes := "id\tname\tkind\n" +
		"Compound::DB00014\tGoserelin\tCompound\n" +
		"Compound::DB00035\tDesmopressin\tCompound\n" +
		"Gene::2867\tFFAR2\tGene\n" +
		"Gene::100\tFFAR2\tGene\n" +
		"Side Effect::C0000737\tAbdominal pain\tSide Effect\n" +
		"方剂::F1\t荆防败毒散\t方剂\n" +
		"中药::H1\t荆芥\t中药\n"
	var ents []base.Entity
	if err := ReadHetionetNodes(strings.NewReader(nodes), "nodes.tsv", func(e base.Entity) error { ents = append(ents, e); return nil }); err != nil {
		f.Fatal(err)
	}
	ids := HetionetIDs(ents)
	known := map[[2]string]bool{}
	for _, e := range ents {
		known[[2]string{e.Type, e.Name}] = true
	}
	for _, s := range [][2]string{
		{"hetnet/Compound_Binds_Gene.tsv", ":START_ID(Compound)\t:END_ID(Gene)\tsources\r\nDB00014\t2867\tBindingDB\r\nDB00035\t 100 \r\n\r\nDB00035\t9999\r\n"},
		{"Compound_Resembles_Compound.tsv", ":START_ID(Compound)\t:END_ID(Compound)\tsimilarity\nDB00014\tDB00035\t0.5\nDB00014\tDB00014\nDB00014\n"},
		{"Compound_Causes_Side Effect.tsv", ":START_ID(Compound)\t:END_ID(Side Effect)\nDB00014\tC0000737\n"},
		{"方剂_包含_中药.tsv", ":START_ID(方剂)\t:END_ID(中药)\nF1\tH1\n"},
		{"edges.tsv", ":START_ID(Compound)\t:END_ID(Gene)\nDB00014\t2867\n"},
		{"Gene_Interacts_Gene.tsv", "id\tname\n"},
		{"Gene_Interacts_Gene.tsv", "\xff\xfe:\x00S\x00"},
	} {
		f.Add(s[0], s[1])
	}
	f.Fuzz(func(t *testing.T, name, in string) {
		var got []base.Triple
		err := ReadHetionetEdges(strings.NewReader(in), name, ids, func(tr base.Triple) error {
			checkReadTriple(t, tr)
			got = append(got, tr)
			return nil
		})
		var ie *InputError
		if err != nil && !errors.As(err, &ie) {
			if !errors.Is(err, ErrBadInput) && !errors.Is(err, ErrUnknownFormat) {
				t.Fatalf("error %v is neither ErrBadInput nor ErrUnknownFormat", err)
			}
			if len(got) > 0 {
				t.Fatalf("%d edges delivered before %v", len(got), err)
			}
			return
		}
		file := filepath.Base(name)
		for _, tr := range got {
			if !known[[2]string{tr.HeadType, tr.Head}] || !known[[2]string{tr.TailType, tr.Tail}] {
				t.Fatalf("%+v: an end is not a known node", tr)
			}
			if tr.Relation != got[0].Relation || !strings.Contains(strings.ToLower(file), "_"+tr.Relation+"_") || tr.Source != file {
				t.Fatalf("%+v: relation or source does not come from the file name %q", tr, name)
			}
		}
		lines, header := readerLines(in)
		rest := len(lines) - header - badLineCount(t, err, name, lines)
		if undirected(strings.ToLower(strings.Split(file, "_")[1])) {
			if len(got) < rest || len(got) > 2*rest {
				t.Fatalf("%d edges from %d good lines of an undirected file", len(got), rest)
			}
		} else if len(got) != rest {
			t.Fatalf("%d edges from %d good lines", len(got), rest)
		}
	})
}

// TestReadersRejectGarbage: names, types, sources and aliases over their
// limits or with control characters are bad lines. A NUL in a name was
// stored and split the store's key, which then failed every load of the
// graph; a name of megabytes made a key bbolt refuses, failing the write.
func TestReadersRejectGarbage(t *testing.T) {
	long := strings.Repeat("x", MaxNameBytes+1)
	triple := func(head, typ, source string) string {
		j, _ := json.Marshal(base.Triple{Head: head, HeadType: typ, Relation: "r", Tail: "b", TailType: "T", Source: source})
		return string(j)
	}
	aliases := strings.Repeat(`"a", `, MaxAliases) + `"a"`
	for _, tc := range []struct {
		cmd, line, want string
	}{
		{"triples", triple("a\x00b", "T", ""), `"head" has a control character`},
		{"triples", triple(long, "T", ""), `"head" is 1025 bytes, more than 1024`},
		{"triples", triple("a", strings.Repeat("T", MaxTypeBytes+1), ""), "head_type is 129 bytes, more than 128"},
		{"triples", triple("a", "T", strings.Repeat("s", MaxSourceBytes+1)), "source is 257 bytes, more than 256"},
		{"entities", `{"name": "a\u0007", "type": "T"}`, `"name" has a control character`},
		{"entities", `{"name": "a", "type": "T", "aliases": [` + aliases + `]}`, "257 aliases, more than 256"},
		{"entities", `{"name": "a", "type": "T", "aliases": ["` + long + `"]}`, "alias 1 is 1025 bytes, more than 1024"},
		{"hetionet-nodes", "id\tname\tkind\nGene::1\t" + long[:MaxNameBytes/2+1] + "\tGene", "name is 513 bytes, more than 512"},
	} {
		var err error
		n := 0
		count := func() error { n++; return nil }
		switch tc.cmd {
		case "triples":
			err = ReadTriples(strings.NewReader(tc.line), "f", func(base.Triple) error { return count() })
		case "entities":
			err = ReadEntities(strings.NewReader(tc.line), "f", func(base.Entity) error { return count() })
		case "hetionet-nodes":
			err = ReadHetionetNodes(strings.NewReader(tc.line), "f", func(base.Entity) error { return count() })
		}
		var ie *InputError
		if n != 0 || !errors.As(err, &ie) || !strings.HasSuffix(ie.Lines[0].Reason, tc.want) {
			t.Errorf("%s %.60q: %d read, error %v; want %q", tc.cmd, tc.line, n, err, tc.want)
		}
	}
}
