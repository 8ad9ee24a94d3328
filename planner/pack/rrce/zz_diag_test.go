package rrce

import (
	"context"
	"testing"
	"time"

	"github.com/medkb/medkb/internal/clinical"
	"github.com/medkb/medkb/internal/text"
	"github.com/medkb/medkb/index/embed"
	"github.com/medkb/medkb/planner/pack"
)

func TestZZDiag(t *testing.T) {
	cases, _ := MedQACases(medqaPath(t), 20, 1)
	noisy := AddNoise(cases, 12, 1)
	var texts []string
	for _, c := range noisy {
		for _, s := range c.Segments {
			texts = append(texts, s.Text)
		}
	}
	tok, _ := text.NewTokenizer()
	st := time.Now()
	for _, s := range texts {
		tok.Count(s)
	}
	t.Logf("tokenize %d texts: %v", len(texts), time.Since(st))
	st = time.Now()
	for _, s := range texts {
		clinical.Classify("", 0, s)
	}
	t.Logf("classify: %v", time.Since(st))
	st = time.Now()
	for _, s := range texts {
		clinical.Compress(s)
	}
	t.Logf("compress: %v", time.Since(st))
	st = time.Now()
	for _, s := range texts {
		clinical.Keys(s)
	}
	t.Logf("keys: %v", time.Since(st))
	st = time.Now()
	embed.NewHash(384).Embed(context.Background(), texts)
	t.Logf("embed: %v", time.Since(st))

	suite, _ := Prepare(context.Background(), cases, DefaultOptions())
	var pk pack.Packer
	for _, c := range suite.cases[:5] {
		total := 0
		for _, cd := range c.cands {
			total += cd.A.Tokens
		}
		p := pack.DefaultParams()
		p.Budget = 2048
		res, _ := pk.Pack(c.cands, p)
		chosen := map[int]pack.Item{}
		for _, it := range res.Items {
			chosen[it.Index] = it
		}
		for _, sg := range c.signal {
			if !sg.t1t2 {
				continue
			}
			it, ok := chosen[sg.cand]
			cd := c.cands[sg.cand]
			t.Logf("case %s total %d: seg %q tier %s chosen=%v state=%c keysOK=%v keys=%q B=%v", c.id, total, cd.A.Text, cd.Tier, ok, it.State, containsAll(it.Text, sg.keys), sg.keys, cd.B != nil)
			if cd.B != nil {
				t.Logf("    B=%q %d/%d simA %.3f simB %.3f", cd.B.Text, cd.NEntity, cd.NTotal, cd.A.Sim, cd.B.Sim)
			}
		}
	}
}
