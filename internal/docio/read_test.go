package docio

import (
	"bufio"
	"errors"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/medkb/medkb/internal/base"
)

func TestReadJSONLReportsEachBadLine(t *testing.T) {
	in := strings.Join([]string{
		`{"id": "a", "text": "chest pain", "tier": "T4", "meta": {"dept": "cardiology", "bed": 12}}`,
		`{"id": "b", "text": "ok"}`,
		`{"id": "c", "text": "broken"`,
		``,
		`{"text": "no id"}`,
		`{"id": "d"}`,
		`{"id": "e", "text": "x", "tier": "T9"}`,
		`{"id": "f", "text": "x", "time": "yesterday"}`,
		"{\"id\": \"g\", \"text\": \"\xff\"}",
		`{"id": "h", "text": "x"} {"id": "i"}`,
		`{"id": "j", "text": "x", "meta": {"k": [1]}}`,
	}, "\n")
	res, err := ReadJSONL(strings.NewReader(in), "docs.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Docs) != 2 || res.Lines[1] != 2 || res.Docs[0].Meta["bed"] != "12" {
		t.Fatalf("good docs: %+v lines %v", res.Docs, res.Lines)
	}
	want := []string{
		"docs.jsonl:3: malformed JSON: unexpected EOF",
		`docs.jsonl:5: missing "id"`,
		`docs.jsonl:6: missing "text"`,
		`docs.jsonl:7: unknown tier "T9" (want T1, T2, T3 or T4, or 1 to 4)`,
		`docs.jsonl:8: "time": cannot read date "yesterday" (want 2024-03-05, 2024/3/5, 2024.3.5, 2024年3月5日 or 20240305, each optionally with a time of day; RFC 3339; a month (2024-03, 2024/3, 2024.3, 2024年3月); or a year (2024))`,
		"docs.jsonl:9: invalid UTF-8",
		"docs.jsonl:10: malformed JSON: more than one value on the line",
		`docs.jsonl:11: meta "k": want a string, number or boolean`,
	}
	if res.NBad != len(want) {
		t.Fatalf("%d bad lines, want %d: %v", res.NBad, len(want), res.Err())
	}
	for i, w := range want {
		if got := res.Bad[i].Error(); got != w {
			t.Errorf("bad line %d:\n got %s\nwant %s", i, got, w)
		}
	}
	var bad *BadInputError
	if !errors.As(res.Err(), &bad) || !strings.HasPrefix(bad.Error(), "8 bad line(s)") {
		t.Fatalf("Err: %v", res.Err())
	}
}

// TestReadRejectsGarbage: every kind of garbage that was once stored
// silently is a bad line naming file:line, the field and the limit.
func TestReadRejectsGarbage(t *testing.T) {
	big := func(n int) string { return strings.Repeat("x", n) }
	manyKeys := make([]string, base.MaxMetaKeys+1)
	for i := range manyKeys {
		manyKeys[i] = fmt.Sprintf(`"k%d": "v"`, i)
	}
	tests := []struct{ line, want string }{
		{`{"id": "a", "text": "   \t\n  "}`, `"text" is only white space`},
		{`{"id": "a", "text": "x", "meta": {"dept": "` + big(5<<20) + `"}}`, `meta "dept" is 5242880 bytes, more than 1024`},
		{`{"id": "a", "text": "x", "meta": {"` + big(200) + `": "v"}}`, `meta key is 200 bytes, more than 128`},
		{`{"id": "a", "text": "x", "meta": {"": "v"}}`, `"meta" has an empty key`},
		{`{"id": "a", "text": "x", "meta": {` + strings.Join(manyKeys, ", ") + `}}`, `"meta" has 65 keys, more than 64`},
		{`{"id": "a", "text": "x", "title": "` + big(2000) + `"}`, `"title" is 2000 bytes, more than 1024`},
		{`{"id": "a", "text": "x", "type": "` + big(300) + `"}`, `"type" is 300 bytes, more than 256`},
		{`{"id": "a", "text": "x", "patient": "P\n1"}`, `"patient" has a control character`},
		{`{"id": "a\u0000b", "text": "x"}`, `"id" has a control character`},
		{`{"id": " a", "text": "x"}`, `"id" has white space around it`},
		{`{"id": "` + big(600) + `", "text": "x"}`, `"id" is 600 bytes, more than 512`},
		{`{"id": "a", "text": "` + big(base.MaxTextBytes+1) + `"}`, `"text" is 1048577 bytes, more than 1048576`},
		{`{"id": "a", "text": "x", "lang": "` + big(257) + `"}`, `"lang" is 257 bytes, more than 256`},
		{`{"id": "a", "text": "x", "time": "` + big(100) + `"}`, `"time" is 100 bytes, more than 64`},
		{`{"id": "a", "text": "x", "vector": [` + strings.Repeat("0.5, ", base.MaxVectorDim) + `0.5]}`, `"vector" has 8193 numbers, more than 8192`},
		{`{"id": "a", "text": "x", "vector": [0, 0, 0]}`, `"vector" is all zeros`},
	}
	var in strings.Builder
	for _, tc := range tests {
		in.WriteString(tc.line + "\n")
	}
	in.WriteString(`{"id": "good", "text": "Chest pain."}` + "\n")
	res, err := ReadJSONL(strings.NewReader(in.String()), "garbage.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	if res.Good != 1 || len(res.Docs) != 1 || res.NBad != len(tests) {
		t.Fatalf("%d good, %d bad; want 1 and %d: %v", res.Good, res.NBad, len(tests), res.Err())
	}
	for i, tc := range tests {
		if want := fmt.Sprintf("garbage.jsonl:%d: %s", i+1, tc.want); res.Bad[i].Error() != want {
			t.Errorf("line %d:\n got %s\nwant %s", i+1, res.Bad[i].Error(), want)
		}
	}
	res, err = ReadTSV(strings.NewReader("a\t \t \n"), "blank.tsv")
	if err != nil || res.NBad != 1 || res.Bad[0].Error() != `blank.tsv:1: missing "text"` {
		t.Fatalf("TSV with a blank text: %v %v", res.Err(), err)
	}
}

// TestScanCallback: a *LineError from Scan's callback makes the line bad
// and the scan go on; another error stops it and is returned as it is.
func TestScanCallback(t *testing.T) {
	stop := errors.New("stop")
	var lines []int
	res, err := Scan(strings.NewReader("a\tx\nb\ty\nc\tz\nd\tw\n"), "f.tsv", func(n int, d base.Doc) error {
		lines = append(lines, n)
		switch d.ID {
		case "b":
			return &LineError{Reason: "not b"}
		case "c":
			return stop
		}
		return nil
	})
	if err != stop || !slices.Equal(lines, []int{1, 2, 3}) || res.Good != 1 || res.NBad != 1 || res.Bad[0].Error() != "f.tsv:2: not b" {
		t.Fatalf("err %v after lines %v (%d good, bad %v)", err, lines, res.Good, res.Err())
	}
}

func TestReadTSV(t *testing.T) {
	res, err := ReadTSV(strings.NewReader("id\ttext\r\nMED-1\tstatin use\r\nbroken line\r\n"), "d.tsv")
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Docs) != 1 || res.Docs[0].ID != "MED-1" || res.Docs[0].Text != "statin use" || res.NBad != 1 {
		t.Fatalf("%+v", res)
	}
}

// TestReadSniffs: Read picks the format by the first character after
// blank lines and a byte-order mark, and still numbers lines from the
// input's first.
func TestReadSniffs(t *testing.T) {
	for _, tc := range []struct {
		in      string
		ids     []string
		lines   []int
		badLine int
	}{
		{"\n\n\nD1\tx\nbroken\n", []string{"D1"}, []int{4}, 5},
		{"\uFEFFid\ttext\nD1\t肌酐 2.8 mg/dL\n", []string{"D1"}, []int{2}, 0},
		{"\n\n_id\ttext\nD1\tx\nid\tsecond header\n", []string{"D1", "id"}, []int{4, 5}, 0},
		{"\uFEFF\r\n  {\"id\": \"a\", \"text\": \"b\"}\n{\n", []string{"a"}, []int{2}, 3},
		{" \n\t\n", nil, nil, 0},
		{strings.Repeat("\n", sniffBytes+1) + "D1\tx\n", []string{"D1"}, []int{sniffBytes + 2}, 0},
	} {
		res, err := Read(strings.NewReader(tc.in), "f")
		if err != nil {
			t.Fatal(err)
		}
		var ids []string
		for _, d := range res.Docs {
			ids = append(ids, d.ID)
		}
		badLine := 0
		if len(res.Bad) > 0 {
			badLine = res.Bad[0].Line
		}
		if !slices.Equal(ids, tc.ids) || !slices.Equal(res.Lines, tc.lines) || badLine != tc.badLine {
			t.Errorf("%.40q: docs %q at lines %v, first bad line %d; want %q at %v, bad %d",
				tc.in, ids, res.Lines, badLine, tc.ids, tc.lines, tc.badLine)
		}
	}
}

func TestLongLineIsAnError(t *testing.T) {
	long := `{"id": "a", "text": "` + strings.Repeat("x", MaxLineBytes) + `"}`
	if _, err := ReadJSONL(strings.NewReader(long), "big.jsonl"); err == nil || !strings.Contains(err.Error(), "big.jsonl") {
		t.Fatalf("want a named error, got %v", err)
	}
}

func FuzzReadJSONL(f *testing.F) {
	f.Add([]byte(`{"id": "a", "text": "b", "tier": "T1", "time": "2020-01-01", "vector": [0.1, 2]}`))
	f.Add([]byte("{\"id\": \"x\", \"text\": \"肌酐 2.8 mg/dL\", \"meta\": {\"n\": 1}}\n\n{"))
	f.Add([]byte(`{"id": "a", "text": "b", "vector": [1e400]}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		res, err := ReadJSONL(strings.NewReader(string(data)), "f")
		if err != nil {
			return
		}
		if len(res.Docs) != len(res.Lines) {
			t.Fatal("docs and lines disagree")
		}
		for _, d := range res.Docs {
			if err := d.Validate(); err != nil {
				t.Fatalf("accepted an invalid doc: %v", err)
			}
		}
	})
}

// FuzzReadTSV checks that ReadTSV fails only on an over-long line, and
// otherwise delivers valid docs, each with its line number, in file
// order, its id and text those of that line trimmed; bad lines are kept
// in order up to MaxReported and, with the good ones, add up to the
// non-blank lines, less at most a header.
func FuzzReadTSV(f *testing.F) {
	f.Add([]byte("id\ttext\r\nMED-1\tstatin use and breast cancer\r\n\r\nMED-2\t  vitamin D  \r\nbroken line\r\n"))
	f.Add([]byte("_id\ttitle\ttext\nPLAIN-3\tDietary fiber\tand heart disease\n"))
	f.Add([]byte("D1\t患者，男，65岁，胸闷气短三天。\nD2\t风寒感冒证：恶寒重，发热轻。\n\t无编号\nD3\t\nid\tnot a header on line 4\n"))
	f.Add([]byte("X\t\xff\xfe\n \t \nY\tok"))
	f.Add([]byte("\uFEFFid\ttext\n\uFEFFD1\tx\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		res, err := ReadTSV(strings.NewReader(string(data)), "f")
		if err != nil {
			if !errors.Is(err, bufio.ErrTooLong) {
				t.Fatalf("error %v is not bufio.ErrTooLong", err)
			}
			return
		}
		if len(res.Docs) != len(res.Lines) {
			t.Fatal("docs and lines disagree")
		}
		lines := strings.Split(string(data), "\n")
		lines[0] = strings.TrimPrefix(lines[0], "\uFEFF")
		nonBlank := 0
		for _, l := range lines {
			if strings.TrimSpace(strings.TrimRight(l, "\r")) != "" {
				nonBlank++
			}
		}
		last := 0
		for i, d := range res.Docs {
			if err := d.Validate(); err != nil {
				t.Fatalf("accepted an invalid doc: %v", err)
			}
			n := res.Lines[i]
			if n <= last || n > len(lines) {
				t.Fatalf("doc %d on line %d after line %d", i, n, last)
			}
			last = n
			id, text, _ := strings.Cut(strings.TrimRight(lines[n-1], "\r"), "\t")
			if d.ID != strings.TrimSpace(id) || d.Text != strings.TrimSpace(text) {
				t.Fatalf("doc %+v does not come from line %d %q", d, n, lines[n-1])
			}
		}
		if len(res.Bad) != min(res.NBad, MaxReported) {
			t.Fatalf("%d bad lines kept of %d", len(res.Bad), res.NBad)
		}
		last = 0
		for _, b := range res.Bad {
			if b.File != "f" || b.Line <= last || b.Line > len(lines) || b.Reason == "" {
				t.Fatalf("bad line %v after line %d", b, last)
			}
			last = b.Line
		}
		if n := len(res.Docs) + res.NBad; n > nonBlank || n < nonBlank-1 {
			t.Fatalf("%d good and %d bad lines of %d non-blank", len(res.Docs), res.NBad, nonBlank)
		}
		var bad *BadInputError
		if (res.NBad == 0) != (res.Err() == nil) || res.NBad > 0 && !errors.As(res.Err(), &bad) {
			t.Fatalf("Err() = %v with %d bad lines", res.Err(), res.NBad)
		}
	})
}
