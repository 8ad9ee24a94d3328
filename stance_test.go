package medkb

import (
	"context"
	"encoding/json"
	"errors"
	"maps"
	"net/http"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/medkb/medkb/internal/hook"
)

// stanceResult is a result of three items to judge.
func stanceResult() *Result {
	return &Result{Items: []Item{
		{Rank: 1, ID: "rct-1#0", Text: "Statins reduced\nmajor cardiac events by 25 %.", Reliability: 0.9},
		{Rank: 2, ID: "cohort-2#1", Text: "No benefit of statins was seen.", Reliability: 0.6},
		{Rank: 3, ID: "note-3#0", Text: "The patient likes tea."},
	}}
}

// chatServer is a fake chat server answering content, after checking
// the request: model, temperature 0, the prompt's two messages.
func chatServer(t *testing.T, content string) string {
	return fakeServer(t, "/v1/chat/completions", func(w http.ResponseWriter, b []byte) {
		var req struct {
			Model       string         `json:"model"`
			Temperature *float64       `json:"temperature"`
			Messages    []hook.Message `json:"messages"`
		}
		if err := json.Unmarshal(b, &req); err != nil {
			t.Error(err)
		}
		wantUser := "Claim: statins prevent cardiac events\n\nEvidence:\n[1] Statins reduced major cardiac events by 25 %.\n[2] No benefit of statins was seen.\n[3] The patient likes tea.\n"
		if req.Model != "judge-1" || req.Temperature == nil || *req.Temperature != 0 || len(req.Messages) != 2 ||
			req.Messages[0] != (hook.Message{Role: "system", Content: stanceSystem}) || req.Messages[1] != (hook.Message{Role: "user", Content: wantUser}) {
			t.Errorf("request %s", b)
		}
		json.NewEncoder(w).Encode(map[string]any{"choices": []any{map[string]any{"message": map[string]any{"role": "assistant", "content": content}}}})
	}).URL + "/v1"
}

// TestStanceJudge: the replies a model gives in practice are read, and
// the map goes straight into Weigh.
func TestStanceJudge(t *testing.T) {
	want := map[string]string{"rct-1#0": StanceSupports, "cohort-2#1": StanceContradicts, "note-3#0": StanceIrrelevant}
	for _, content := range []string{
		`{"1": "supports", "2": "contradicts", "3": "irrelevant"}`,
		"```json\n{\"1\": \"Supports\", \"2\": \"CONTRADICTS\", \"[3]\": \" irrelevant \"}\n```",
		`Here are the labels: {"3": "irrelevant", "1": "supports", "2": "contradicts"} Hope this helps.`,
		"1: supports\n[2] contradicts\n\n3. Irrelevant.\n",
	} {
		j := &StanceJudge{URL: chatServer(t, content), Model: "judge-1"}
		got, err := j.Judge(context.Background(), "statins\tprevent cardiac events", stanceResult())
		if err != nil || !maps.Equal(got, want) {
			t.Fatalf("%q: got %v, %v", content, got, err)
		}
		tally, err := stanceResult().Weigh(got, DefaultMargin)
		if err != nil || tally.Supporting != 1 || tally.Opposing != 1 {
			t.Fatalf("weigh: %+v, %v", tally, err)
		}
	}
	got, err := (&StanceJudge{URL: downURL(t)}).Judge(context.Background(), "x", &Result{})
	if err != nil || len(got) != 0 {
		t.Fatalf("no items: got %v, %v; want no request", got, err)
	}
}

// TestStanceJudgeErrors: a malformed reply, a server that is down, one
// that does not answer in time or answers an error all fail naming the
// endpoint.
func TestStanceJudgeErrors(t *testing.T) {
	chat := func(content string) func(t *testing.T) string {
		return func(t *testing.T) string { return chatServer(t, content) }
	}
	raw := func(body string) func(t *testing.T) string {
		return func(t *testing.T) string { return fakeServer(t, "/v1/chat/completions", reply(body)).URL + "/v1" }
	}
	for _, tc := range []struct {
		name string
		url  func(t *testing.T) string
		want string
	}{
		{"down", downURL, "is unreachable"},
		{"timeout", func(t *testing.T) string { return hangs(t).URL + "/v1" }, "did not answer within 50ms"},
		{"status", func(t *testing.T) string {
			return fakeServer(t, "/v1/chat/completions", func(w http.ResponseWriter, _ []byte) {
				http.Error(w, `{"error":"no such model"}`, http.StatusNotFound)
			}).URL + "/v1"
		}, `answered 404 Not Found: {"error":"no such model"}`},
		{"not a completion", raw(`[1, 2]`), "malformed reply: not a chat completion"},
		{"no choices", raw(`{"choices": []}`), "malformed reply: no choices[0].message.content"},
		{"prose", chat("The first supports it, the others do not."), `nor one "n: label" line an item`},
		{"missing item", chat(`{"1": "supports", "2": "contradicts"}`), "item 3 of 3 has no label"},
		{"extra item", chat(`{"1": "supports", "2": "contradicts", "3": "irrelevant", "4": "supports"}`), `"4" is not an item number from 1 to 3`},
		{"twice", chat("1: supports\n2: contradicts\n2: irrelevant\n3: irrelevant"), "item 2 is labelled twice"},
		{"twice json", chat(`{"1": "supports", "[1]": "supports", "2": "contradicts", "3": "irrelevant"}`), "item 1 is labelled twice"},
		{"unknown label", chat(`{"1": "supports", "2": "neutral", "3": "irrelevant"}`), `item 2: unknown label "neutral"`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			url := tc.url(t)
			j := &StanceJudge{URL: url, Model: "judge-1", Timeout: 50 * time.Millisecond}
			_, err := j.Judge(context.Background(), "statins prevent cardiac events", stanceResult())
			if err == nil || !strings.Contains(err.Error(), tc.want) || !strings.Contains(err.Error(), "stance endpoint "+url+"/chat/completions") {
				t.Fatalf("got %v, want %q naming the endpoint", err, tc.want)
			}
			if tc.name == "timeout" && !errors.Is(err, context.DeadlineExceeded) {
				t.Fatalf("timeout: %v", err)
			}
		})
	}
}

// TestStancePromptDocumented: docs/stance.md quotes the prompt as sent.
func TestStancePromptDocumented(t *testing.T) {
	doc, err := os.ReadFile("docs/stance.md")
	if err != nil {
		t.Fatal(err)
	}
	user := stancePrompt("{claim}", []Item{{Text: "{text of item 1}"}, {Text: "{text of item 2}"}})
	for _, part := range []string{stanceSystem, user} {
		if !strings.Contains(string(doc), part) {
			t.Errorf("docs/stance.md does not quote %q", part)
		}
	}
}
