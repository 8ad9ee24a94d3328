package packbench

import (
	"context"
	"encoding/json"
	"errors"
	"maps"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"slices"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/medkb/medkb/internal/golden"
	"github.com/medkb/medkb/internal/hook"
	"github.com/medkb/medkb/internal/text"
)

func TestChosenOption(t *testing.T) {
	letters := []string{"A", "B", "C", "D", "E"}
	for reply, want := range map[string]string{
		"B":                                      "B",
		" (C) ":                                  "C",
		"**D**":                                  "D",
		"E.":                                     "E",
		"B. Tell the attending":                  "B",
		"C) Report the physician":                "C",
		"The answer is B.":                       "B",
		"After weighing the record, Answer: (D)": "D",
		"答案：C":                                   "C",
		"答案是A。":                                  "A",
		"A 45-year-old man has chest pain.":      "",
		"F":                                      "",
		"b":                                      "",
		"I cannot tell from this record.":        "",
		"":                                       "",
	} {
		if got := ChosenOption(reply, letters); got != want {
			t.Errorf("ChosenOption(%q) = %q, want %q", reply, got, want)
		}
	}
}

// medqaSuite is the Chinese MedQA sample as a suite with its noise, and
// a fake model that answers a case right exactly when the record it is
// given holds every key of the case's T1/T2 segments (what the question
// rests on), and another letter otherwise.
func medqaSuite(t *testing.T) (*Suite, Asker, *atomic.Int64) {
	t.Helper()
	cases, _, err := MedQACases(filepath.Join("testdata", "medqa_zh.jsonl"), MedQASample{Seed: 1})
	if err != nil {
		t.Fatal(err)
	}
	s, err := Prepare(context.Background(), cases, DefaultOptions())
	if err != nil {
		t.Fatal(err)
	}
	type truth struct {
		answer, wrong string
		keys          []string
	}
	byQuestion := map[string]truth{}
	for i, c := range cases {
		tr := truth{answer: c.Answer, wrong: "A"}
		if c.Answer == "A" {
			tr.wrong = "B"
		}
		for _, sg := range s.cases[i].signal {
			if sg.t1t2() {
				tr.keys = append(tr.keys, sg.keys...)
			}
		}
		byQuestion[c.Question+"\n"+medqaOptions(c.Options)] = tr
	}
	var calls atomic.Int64
	ask := func(_ context.Context, msgs []hook.Message) (string, error) {
		calls.Add(1)
		user := msgs[len(msgs)-1].Content
		record, rest, _ := strings.Cut(user, "\nQuestion: ")
		q, _, _ := strings.Cut(rest, "\n\nAnswer with one letter.")
		tr, ok := byQuestion[q]
		if !ok {
			return "", errors.New("unknown question " + q)
		}
		if containsAll(text.FoldKey(record), tr.keys) {
			return "答案：" + tr.answer, nil
		}
		return tr.wrong, nil
	}
	return s, ask, &calls
}

// medqaOptions is the options as a prompt lists them.
func medqaOptions(options map[string]string) string {
	var sb strings.Builder
	for _, l := range slices.Sorted(maps.Keys(options)) {
		sb.WriteString(l + ". " + options[l] + "\n")
	}
	return strings.TrimSuffix(sb.String(), "\n")
}

// TestAnswer: every (case, strategy, window) gets a prompt plus one with
// the full record; identical prompts are asked once; accuracy and APR
// follow from the replies, and the full record answers every case.
func TestAnswer(t *testing.T) {
	s, ask, calls := medqaSuite(t)
	cfg := DefaultConfig()
	cfg.Windows = []int{64, 512}
	prompts, err := s.Prompts(cfg)
	if err != nil {
		t.Fatal(err)
	}
	if want := s.Len() * (len(AnswerStrategies())*2 + 1); len(prompts) != want {
		t.Fatalf("%d prompts, want %d", len(prompts), want)
	}
	rep, err := Answer(context.Background(), prompts, ask, 3)
	if err != nil {
		t.Fatal(err)
	}
	if rep.Cases != s.Len() || rep.Full != 1 || rep.Unparsed != 0 {
		t.Errorf("cases %d, full-record accuracy %v, unparsed %d; want %d, 1, 0", rep.Cases, rep.Full, rep.Unparsed, s.Len())
	}
	if int(calls.Load()) != rep.Requests || rep.Requests >= len(prompts) {
		t.Errorf("%d calls, %d requests for %d prompts: want identical prompts asked once", calls.Load(), rep.Requests, len(prompts))
	}
	for st, acc := range rep.Accuracy {
		if acc["64"] > acc["512"] {
			t.Errorf("%s: accuracy %v at 64 tokens above %v at 512", st, acc["64"], acc["512"])
		}
		if rep.APR[st]["512"] != acc["512"]/rep.Full {
			t.Errorf("%s: APR %v, want accuracy/full %v", st, rep.APR[st]["512"], acc["512"]/rep.Full)
		}
	}
	var table strings.Builder
	if err := rep.WriteTable(&table); err != nil {
		t.Fatal(err)
	}
	var first strings.Builder
	if err := WritePrompts(&first, prompts[:1]); err != nil {
		t.Fatal(err)
	}
	golden.File(t, filepath.Join("testdata", "answer.golden"), table.String()+"\n"+first.String())
}

// TestAnswerNoQuestion: cases without a question cannot be asked.
func TestAnswerNoQuestion(t *testing.T) {
	if _, err := tinySuite(t, DefaultOptions()).Prompts(DefaultConfig()); err == nil || !strings.Contains(err.Error(), "no case has a question") {
		t.Fatalf("got %v", err)
	}
}

// TestAnswerEndpoint runs the harness against a fake chat server: a
// correct run, then a server that is down, one too slow, one that
// answers what is not a chat reply and one that answers an error status,
// each stopping the run with an error naming the endpoint.
func TestAnswerEndpoint(t *testing.T) {
	s, ask, _ := medqaSuite(t)
	cfg := DefaultConfig()
	cfg.Windows = []int{256}
	prompts, err := s.Prompts(cfg)
	if err != nil {
		t.Fatal(err)
	}
	serve := func(h http.HandlerFunc) string {
		srv := httptest.NewServer(h)
		t.Cleanup(srv.Close)
		return srv.URL + "/v1/chat/completions"
	}
	good := serve(func(w http.ResponseWriter, r *http.Request) {
		var req hook.ChatRequest
		if err := json.NewDecoder(r.Body).Decode(&req); err != nil || req.Model != "m1" || r.URL.Path != "/v1/chat/completions" {
			http.Error(w, "bad request", http.StatusBadRequest)
			return
		}
		content, err := ask(r.Context(), req.Messages)
		if err != nil {
			http.Error(w, err.Error(), http.StatusBadRequest)
			return
		}
		json.NewEncoder(w).Encode(map[string]any{"choices": []any{map[string]any{"message": map[string]any{"role": "assistant", "content": content}}}})
	})
	rep, err := Answer(context.Background(), prompts, ChatAsker(hook.Endpoint{What: "answer", URL: good}, "m1"), 2)
	if err != nil || rep.Full != 1 {
		t.Fatalf("good server: %+v, %v", rep, err)
	}

	slow := serve(func(w http.ResponseWriter, r *http.Request) {
		select {
		case <-r.Context().Done():
		case <-time.After(time.Second):
		}
	})
	closed := httptest.NewServer(http.NotFoundHandler())
	closed.Close()
	for _, tc := range []struct {
		name, url string
		want      string
	}{
		{"down", closed.URL + "/v1/chat/completions", "is unreachable"},
		{"slow", slow, "did not answer within"},
		{"malformed", serve(func(w http.ResponseWriter, _ *http.Request) { w.Write([]byte("<html>oops</html>")) }), "malformed reply"},
		{"no content", serve(func(w http.ResponseWriter, _ *http.Request) { w.Write([]byte(`{"choices": []}`)) }), "no choices[0].message.content"},
		{"error status", serve(func(w http.ResponseWriter, _ *http.Request) { http.Error(w, "model overloaded", 503) }), "503"},
	} {
		ep := hook.Endpoint{What: "answer", URL: tc.url}
		if tc.name == "slow" {
			ep.Timeout = 100 * time.Millisecond
		}
		_, err := Answer(context.Background(), prompts, ChatAsker(ep, "m1"), 2)
		if err == nil || !strings.Contains(err.Error(), tc.want) || !strings.Contains(err.Error(), "answer endpoint") {
			t.Errorf("%s: got %v, want an error naming the endpoint and %q", tc.name, err, tc.want)
		}
	}
}

// FuzzChosenOption: whatever a model replies, the choice is one of the
// letters or none.
func FuzzChosenOption(f *testing.F) {
	for _, s := range []string{"B", "(C)", "The answer is D.", "答案：A", "A 45-year-old", "**E**"} {
		f.Add(s)
	}
	letters := []string{"A", "B", "C", "D"}
	f.Fuzz(func(t *testing.T, reply string) {
		if got := ChosenOption(reply, letters); got != "" && !slices.Contains(letters, got) {
			t.Fatalf("ChosenOption(%q) = %q, not one of %v", reply, got, letters)
		}
	})
}
