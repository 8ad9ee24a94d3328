package rrce

import (
	"context"
	"strings"
	"testing"
)

func TestZZShift(t *testing.T) {
	cases, _ := MedQACases(medqaPath(t), 60, 1)
	suite, _ := Prepare(context.Background(), cases, DefaultOptions())
	rep, _ := suite.Run(DefaultConfig())
	var sb strings.Builder
	rep.WriteTable(&sb)
	t.Log("\n" + sb.String())
	neg, tot := 0, 0
	for ci := range suite.cases {
		for i := range suite.cases[ci].cands {
			c := &suite.cases[ci].cands[i]
			tot++
			if c.A.Sim <= 0 {
				neg++
			}
			c.A.Sim = (1 + c.A.Sim) / 2
			if c.B != nil {
				c.B.Sim = (1 + c.B.Sim) / 2
			}
		}
	}
	t.Logf("sim <= 0: %d of %d", neg, tot)
	rep, _ = suite.Run(DefaultConfig())
	sb.Reset()
	rep.WriteTable(&sb)
	t.Log("shifted\n" + sb.String())
}
