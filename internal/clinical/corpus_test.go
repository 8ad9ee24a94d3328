package clinical

import (
	"bufio"
	"encoding/json"
	"os"
	"path/filepath"
	"testing"

	"github.com/medkb/medkb/internal/base"
	"github.com/medkb/medkb/internal/text"
)

func readCorpus(t *testing.T) []base.Doc {
	t.Helper()
	f, err := os.Open(filepath.Join("..", "..", "testdata", "corpus", "docs.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var docs []base.Doc
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 1<<20), 1<<20)
	for sc.Scan() {
		var d base.Doc
		if err := json.Unmarshal(sc.Bytes(), &d); err != nil {
			t.Fatalf("corpus line %d: %v", len(docs)+1, err)
		}
		docs = append(docs, d)
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	return docs
}

// TestCorpusTiers checks the sample corpus against the rules: every type
// it uses is in the table, and all four tiers occur.
func TestCorpusTiers(t *testing.T) {
	counts := map[base.Tier]int{}
	for _, d := range readCorpus(t) {
		if d.Type != "" {
			if _, ok := TierOfType(d.Type); !ok {
				t.Errorf("%s: type %q is not in the type table", d.ID, d.Type)
			}
		}
		tier, why := Classify(d.Type, d.Tier, d.Text)
		counts[tier]++
		if d.Type == "" || d.Tier != base.TierNone {
			t.Logf("%s: %s (%s)", d.ID, tier, why)
		}
	}
	for _, tier := range base.Tiers {
		if counts[tier] == 0 {
			t.Errorf("no %s document in the corpus", tier)
		}
	}
	t.Logf("tiers: %v", counts)
}

// TestCompressionRatio measures state B on the T1 and T2 documents of the
// sample corpus: tokens of B over tokens of A, and key survival. It fails
// when B is not markedly shorter or loses keys.
func TestCompressionRatio(t *testing.T) {
	tok, err := text.NewTokenizer()
	if err != nil {
		t.Fatal(err)
	}
	var sumRatio float64
	var docs, kept, total int
	for _, d := range readCorpus(t) {
		tier, _ := Classify(d.Type, d.Tier, d.Text)
		if tier != base.T1 && tier != base.T2 {
			continue
		}
		b, n, all := Compress(d.Text)
		if b == "" {
			continue
		}
		ratio := float64(tok.Count(b)) / float64(tok.Count(d.Text))
		t.Logf("%-14s %s %.2f %d/%d  %s", d.ID, tier, ratio, n, all, b)
		sumRatio += ratio
		docs++
		kept += n
		total += all
	}
	mean := sumRatio / float64(docs)
	survival := float64(kept) / float64(total)
	t.Logf("%d T1/T2 documents: mean tokens(B)/tokens(A) = %.2f, keys kept %d/%d = %.1f%%", docs, mean, kept, total, 100*survival)
	if mean > 0.75 {
		t.Errorf("mean compression ratio %.2f, want at most 0.75", mean)
	}
	if survival < 0.95 {
		t.Errorf("key survival %.3f, want at least 0.95", survival)
	}
}

// TestCompressionMedQA reports state B on the objective (T1/T2) sentences
// of every MedQA vignette, grouped per vignette as a chunk would be.
func TestCompressionMedQA(t *testing.T) {
	vignettes := medqaVignettes(t)
	tok, err := text.NewTokenizer()
	if err != nil {
		t.Fatal(err)
	}
	var tokensA, tokensB, kept, total, chunks int
	for _, q := range vignettes {
		var objective string
		for _, s := range text.Sentences(q) {
			if tier, _ := Classify("", base.TierNone, s); tier == base.T1 || tier == base.T2 {
				objective += s + "\n"
			}
		}
		b, n, all := Compress(objective)
		if b == "" {
			continue
		}
		chunks++
		tokensA += tok.Count(objective)
		tokensB += tok.Count(b)
		kept += n
		total += all
	}
	t.Logf("MedQA: %d vignettes with T1/T2 text; tokens(B)/tokens(A) = %.2f; keys kept %d/%d = %.1f%%",
		chunks, float64(tokensB)/float64(tokensA), kept, total, 100*float64(kept)/float64(total))
}
