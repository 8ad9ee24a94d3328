package base

import (
	"encoding/json"
	"testing"
)

func TestTierJSON(t *testing.T) {
	for in, want := range map[string]Tier{
		`"T1"`: T1, `" t2 "`: T2, `3`: T3, `4`: T4, `"2"`: T2, `2.0`: T2, `""`: TierNone,
	} {
		var got Tier
		if err := json.Unmarshal([]byte(in), &got); err != nil || got != want {
			t.Errorf("%s: got %v, %v; want %v", in, got, err, want)
		}
	}
	for _, in := range []string{`0`, `5`, `1.5`, `-1`, `"T5"`, `"5"`, `true`, `[1]`, `"1e400"`} {
		var got Tier
		if err := json.Unmarshal([]byte(in), &got); err == nil {
			t.Errorf("%s: got %v, want an error", in, got)
		}
	}
	kept := T3
	if err := json.Unmarshal([]byte(`null`), &kept); err != nil || kept != T3 {
		t.Errorf("null: got %v, %v; want T3 unchanged", kept, err)
	}
	out, err := json.Marshal(struct{ Tier Tier }{T2})
	if err != nil || string(out) != `{"Tier":"T2"}` {
		t.Errorf("marshal: %s, %v", out, err)
	}
}
