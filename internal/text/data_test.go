package text

import (
	"bufio"
	"encoding/json"
	"os"
	"path/filepath"
	"testing"

	"github.com/medkb/medkb/internal/shareddata"
)

// corpusTexts returns the texts of the project's sample corpus and, when the
// shared data is present, of the MedQA vignettes.
func corpusTexts(t testing.TB) []string {
	t.Helper()
	texts := readJSONLField(t, filepath.Join("..", "..", "testdata", "corpus", "docs.jsonl"), "text")
	medqa := filepath.Join(shareddata.Dir(), "medqa", "medqa_test.jsonl")
	if _, err := os.Stat(medqa); err != nil {
		t.Logf("MedQA not found at %s; set MEDKB_DATA to include it", medqa)
		return texts
	}
	return append(texts, readJSONLField(t, medqa, "question")...)
}

// readJSONLField reads one string field of every line of a JSON Lines file.
func readJSONLField(t testing.TB, path, field string) []string {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var out []string
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 1<<20), 1<<20)
	for sc.Scan() {
		var rec map[string]any
		if err := json.Unmarshal(sc.Bytes(), &rec); err != nil {
			t.Fatalf("%s: %v", path, err)
		}
		if s, ok := rec[field].(string); ok {
			out = append(out, s)
		}
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	return out
}
