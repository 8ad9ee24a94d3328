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
// sample corpus as ingest gives it (StateB): how many get one, tokens of B
// over tokens of A, and key survival. It fails when a state B loses a key
// or when none gets one.
func TestCompressionRatio(t *testing.T) {
	tok, err := text.NewTokenizer()
	if err != nil {
		t.Fatal(err)
	}
	var sumRatio float64
	var objective, docs, kept, total int
	for _, d := range readCorpus(t) {
		tier, _ := Classify(d.Type, d.Tier, d.Text)
		if tier != base.T1 && tier != base.T2 {
			continue
		}
		objective++
		tokensA := tok.Count(d.Text)
		b, tokensB, n, all := StateB(d.Text, tokensA, tok.Count)
		if b == "" {
			continue
		}
		ratio := float64(tokensB) / float64(tokensA)
		t.Logf("%-14s %s %.2f %d/%d  %s", d.ID, tier, ratio, n, all, b)
		if n != all {
			t.Errorf("%s: state B keeps %d of %d keys", d.ID, n, all)
		}
		sumRatio += ratio
		docs++
		kept += n
		total += all
	}
	if docs == 0 {
		t.Fatal("no T1/T2 document of the corpus gets a state B")
	}
	t.Logf("%d of %d T1/T2 documents have a state B: mean tokens(B)/tokens(A) = %.2f, keys kept %d/%d",
		docs, objective, sumRatio/float64(docs), kept, total)
}

// TestCompressionMedQA holds Compress to its contract on the objective
// (T1/T2) sentences of every MedQA vignette, grouped per vignette as a
// chunk would be: a state B keeps every key (F(B) = 1) and is shorter
// than the text it compresses, and some vignettes get one. It logs the
// token ratio and the key count.
func TestCompressionMedQA(t *testing.T) {
	vignettes := medqaVignettes(t)
	if testing.Short() {
		t.Skip("compresses 1,273 MedQA vignettes")
	}
	tok, err := text.NewTokenizer()
	if err != nil {
		t.Fatal(err)
	}
	var tokensA, tokensB, kept, total, chunks int
	for idx, q := range vignettes {
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
		if n != all {
			t.Errorf("vignette %d: state B keeps %d of %d keys\n%s\n->\n%s", idx, n, all, objective, b)
		}
		if len(b) >= len(objective) {
			t.Errorf("vignette %d: state B is no shorter than the text\n%s\n->\n%s", idx, objective, b)
		}
		chunks++
		tokensA += tok.Count(objective)
		tokensB += tok.Count(b)
		kept += n
		total += all
	}
	if chunks == 0 {
		t.Fatal("no MedQA vignette gets a state B")
	}
	t.Logf("MedQA: %d vignettes with a state B; tokens(B)/tokens(A) = %.2f; keys kept %d/%d",
		chunks, float64(tokensB)/float64(tokensA), kept, total)
}
