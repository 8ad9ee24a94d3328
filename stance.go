package medkb

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"regexp"
	"strconv"
	"strings"
	"time"

	"github.com/medkb/medkb/internal/hook"
)

// StanceJudge labels each item of a Result supports, contradicts or
// irrelevant for a claim by asking an OpenAI-compatible chat server
// (POST URL/chat/completions, temperature 0), giving the map
// Result.Weigh takes. The prompt and the reply format it reads are in
// docs/stance.md.
type StanceJudge struct {
	// URL is the server root the chat path is appended to:
	// "https://api.openai.com/v1", "http://localhost:11434/v1" (Ollama).
	URL   string
	Model string
	// APIKey is sent as a bearer token; empty sends no Authorization.
	APIKey string
	// Timeout bounds the request; zero means DefaultHookTimeout.
	Timeout time.Duration
	// Client sends the request; nil means http.DefaultClient.
	Client *http.Client
}

// stanceSystem is the system message of the stance prompt, and
// stanceUser the user message's format (the claim, then the items); both
// are quoted in docs/stance.md.
const (
	stanceSystem = `You judge medical evidence. You are given a claim and numbered evidence items. For each item, decide from its text alone whether it supports the claim, contradicts it, or is irrelevant to it. Reply with a JSON object and nothing else, mapping every item number to "supports", "contradicts" or "irrelevant", for example {"1": "supports", "2": "irrelevant", "3": "contradicts"}.`
	stanceUser   = "Claim: %s\n\nEvidence:\n%s"
)

// Judge asks the server for the stance of every item of r toward claim,
// in one request, and returns item id (Item.ID) -> StanceSupports,
// StanceContradicts or StanceIrrelevant for every item. A result without
// items needs no request. A reply that leaves an item out, labels one
// twice, names an item that is not there or gives another label is an
// error that quotes the reply.
func (j *StanceJudge) Judge(ctx context.Context, claim string, r *Result) (map[string]string, error) {
	stances := make(map[string]string, len(r.Items))
	if len(r.Items) == 0 {
		return stances, nil
	}
	ep := hook.Endpoint{What: "stance", URL: hook.Join(j.URL, "/chat/completions"), APIKey: j.APIKey, Timeout: j.Timeout, Client: j.Client}
	content, err := ep.Chat(ctx, j.Model, []hook.Message{
		{Role: "system", Content: stanceSystem},
		{Role: "user", Content: stancePrompt(claim, r.Items)},
	})
	if err != nil {
		return nil, err
	}
	labels, err := parseStances(content, len(r.Items))
	if err != nil {
		return nil, ep.Malformed([]byte(content), "%v", err)
	}
	for i, it := range r.Items {
		stances[it.ID] = labels[i]
	}
	return stances, nil
}

// stancePrompt is the user message: the claim, then one line an item,
// "[n] text", numbered from 1 in the result's order, each text on one
// line.
func stancePrompt(claim string, items []Item) string {
	var b strings.Builder
	for i, it := range items {
		fmt.Fprintf(&b, "[%d] %s\n", i+1, strings.Join(strings.Fields(it.Text), " "))
	}
	return fmt.Sprintf(stanceUser, strings.Join(strings.Fields(claim), " "), b.String())
}

// stanceLine is one "n: label" line of a reply that is not JSON:
// "1: supports", "[2] irrelevant", "3 - contradicts", "4. Supports".
var stanceLine = regexp.MustCompile(`^\s*\[?(\d+)\]?\s*[:.)=-]?\s*"?([A-Za-z]+)"?[.,]?\s*$`)

// parseStances reads a reply for n items: the JSON object the prompt
// asks for, found anywhere in the reply (inside a Markdown code fence,
// after a sentence), with keys "1" or "[1]"; or, failing that, one
// "n: label" line an item. Labels are read case-insensitively. It
// returns the label of item i+1 at i.
func parseStances(reply string, n int) ([]string, error) {
	pairs := map[string]string{}
	open, end := strings.Index(reply, "{"), strings.LastIndex(reply, "}")
	jsonErr := fmt.Errorf("no JSON object")
	if open >= 0 && end > open {
		jsonErr = json.Unmarshal([]byte(reply[open:end+1]), &pairs)
	}
	if jsonErr != nil {
		pairs = map[string]string{}
		for _, line := range strings.Split(reply, "\n") {
			if strings.TrimSpace(line) == "" {
				continue
			}
			m := stanceLine.FindStringSubmatch(line)
			if m == nil {
				return nil, fmt.Errorf("neither a JSON object of item numbers (%v) nor one \"n: label\" line an item (%q)", jsonErr, strings.TrimSpace(line))
			}
			if _, dup := pairs[m[1]]; dup {
				return nil, fmt.Errorf("item %s is labelled twice", m[1])
			}
			pairs[m[1]] = m[2]
		}
	}
	labels := make([]string, n)
	for key, label := range pairs {
		k, err := strconv.Atoi(strings.Trim(strings.TrimSpace(key), "[]"))
		if err != nil || k < 1 || k > n {
			return nil, fmt.Errorf("%q is not an item number from 1 to %d", key, n)
		}
		if labels[k-1] != "" {
			return nil, fmt.Errorf("item %d is labelled twice", k)
		}
		switch l := strings.ToLower(strings.TrimSpace(label)); l {
		case StanceSupports, StanceContradicts, StanceIrrelevant:
			labels[k-1] = l
		default:
			return nil, fmt.Errorf("item %d: unknown label %q; the prompt asks for %s, %s or %s", k, label, StanceSupports, StanceContradicts, StanceIrrelevant)
		}
	}
	for i, l := range labels {
		if l == "" {
			return nil, fmt.Errorf("item %d of %d has no label", i+1, n)
		}
	}
	return labels, nil
}
