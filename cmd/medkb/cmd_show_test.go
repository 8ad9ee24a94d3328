package main

import (
	"strings"
	"testing"

	"github.com/medkb/medkb"
)

func TestTierLine(t *testing.T) {
	for _, tt := range []struct {
		c    medkb.ChunkView
		want string
	}{
		{medkb.ChunkView{Tier: "T2", TierBy: "type table: lab", TierOf: medkb.TierOfDocument}, "tier T2 by type table: lab, the document's"},
		{medkb.ChunkView{Tier: "T4", TierBy: "text rule: narrative", TierOf: medkb.TierOfChunk}, "tier T4 by text rule: narrative, on this chunk's own text"},
		{medkb.ChunkView{Tier: "T1"}, "tier T1; how it was decided is not recorded"},
	} {
		if got := tierLine(tt.c); !strings.HasPrefix(got, tt.want) {
			t.Errorf("tierLine(%+v) = %q, want it to start %q", tt.c, got, tt.want)
		}
	}
	if got := tierLine(medkb.ChunkView{Tier: "T1"}); !strings.Contains(got, "medkb rebuild") {
		t.Errorf("an unrecorded tier does not say that a rebuild records it: %q", got)
	}
}
