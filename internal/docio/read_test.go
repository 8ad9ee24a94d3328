package docio

import (
	"errors"
	"strings"
	"testing"
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

func TestReadTSV(t *testing.T) {
	res, err := ReadTSV(strings.NewReader("id\ttext\r\nMED-1\tstatin use\r\nbroken line\r\n"), "d.tsv")
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Docs) != 1 || res.Docs[0].ID != "MED-1" || res.Docs[0].Text != "statin use" || res.NBad != 1 {
		t.Fatalf("%+v", res)
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
