package evidence

import (
	"encoding/json"
	"errors"
	"fmt"
	"reflect"
	"strings"
	"testing"

	"github.com/medkb/medkb/internal/base"
	"github.com/medkb/medkb/internal/golden"
)

// TestReadQuestions runs the cases of testdata/read.txt: "read" reads
// the input as a question file named q.jsonl, "check" also checks it
// against the fixture's documents. Each prints the questions or the
// error.
func TestReadQuestions(t *testing.T) {
	docs := map[string]*base.Doc{}
	for _, d := range fixture(t).Docs {
		docs[d.ID] = &d
	}
	golden.Run(t, "testdata/read.txt", func(t *testing.T, c *golden.Case) string {
		qs, err := ReadQuestions(strings.NewReader(c.Input), "q.jsonl")
		if err == nil && c.Cmd == "check" {
			err = Check(qs, docs)
		}
		if err != nil {
			if !errors.Is(err, ErrQuestions) {
				t.Errorf("%v is not ErrQuestions", err)
			}
			return "error: " + err.Error()
		}
		var sb strings.Builder
		for _, q := range qs {
			fmt.Fprintf(&sb, "%s %s %s patient=%q evidence=%v\n", q.Pos, q.ID, q.Kind, q.Patient, q.Evidence)
		}
		return sb.String()
	})
}

func FuzzReadQuestions(f *testing.F) {
	for _, s := range []string{
		`{"id": "q1", "question": "What was his troponin?", "patient": "P001", "kind": "targeted", "evidence": [{"doc": "P001-lab-06", "quote": "2.3 ng/mL"}, {"doc": "P001-ecg-05"}]}`,
		"{\"id\": \"q2\", \"question\": \"肾功能怎么样？\", \"kind\": \"generic\", \"evidence\": [{\"doc\": \"a\"}]}\n\n{\"id\": 3}",
		`{"id": "q", "question": "x", "kind": "targeted", "evidence": [{"doc": "a", "quote": " "}]}`,
		"\ufeff{\"id\": \"q\"}\r\n",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, in string) {
		qs, err := ReadQuestions(strings.NewReader(in), "f")
		if err != nil {
			if !errors.Is(err, ErrQuestions) && !strings.HasPrefix(err.Error(), "f: ") {
				t.Fatalf("error neither ErrQuestions nor naming the file: %v", err)
			}
			return
		}
		seen := map[string]bool{}
		for _, q := range qs {
			if q.check() != nil || seen[q.ID] || !strings.HasPrefix(q.Pos, "f:") {
				t.Fatalf("accepted an invalid question %+v", q)
			}
			seen[q.ID] = true
		}
		// What was read writes back as a file that reads the same.
		var sb strings.Builder
		for _, q := range qs {
			b, err := json.Marshal(q)
			if err != nil {
				t.Fatal(err)
			}
			sb.Write(append(b, '\n'))
		}
		again, err := ReadQuestions(strings.NewReader(sb.String()), "f")
		if err != nil {
			t.Fatalf("written back, %v", err)
		}
		for i := range again {
			again[i].Pos = qs[i].Pos
		}
		if len(qs) > 0 && !reflect.DeepEqual(again, qs) {
			t.Fatalf("read back %+v, want %+v", again, qs)
		}
	})
}
