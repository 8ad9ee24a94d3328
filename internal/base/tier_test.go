package base

import (
	"encoding/json"
	"testing"
)

func TestTierJSON(t *testing.T) {
	for in, want := range map[string]Tier{
		`"T1"`: T1, `" t2 "`: T2, `3`: T3, `4`: T4, `null`: TierNone, `""`: TierNone,
	} {
		var got Tier
		if err := json.Unmarshal([]byte(in), &got); err != nil || got != want {
			t.Errorf("%s: got %v, %v; want %v", in, got, err, want)
		}
	}
	for _, in := range []string{`0`, `5`, `1.0`, `-1`, `"T5"`, `true`, `[1]`} {
		var got Tier
		if err := json.Unmarshal([]byte(in), &got); err == nil {
			t.Errorf("%s: got %v, want an error", in, got)
		}
	}
	out, err := json.Marshal(struct{ Tier Tier }{T2})
	if err != nil || string(out) != `{"Tier":"T2"}` {
		t.Errorf("marshal: %s, %v", out, err)
	}
}
