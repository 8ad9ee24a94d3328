package evidence

import (
	"context"
	"os"
	"strings"
	"testing"

	"github.com/medkb/medkb/internal/docio"
	"github.com/medkb/medkb/internal/golden"
)

// fixture is the package's own small set: two patients, one English and
// one Chinese, with targeted and generic questions.
func fixture(t *testing.T) *Set {
	t.Helper()
	f, err := os.Open("testdata/docs.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	res, err := docio.ReadJSONL(f, "testdata/docs.jsonl")
	if err == nil {
		err = res.Err()
	}
	if err != nil {
		t.Fatal(err)
	}
	qs, err := ReadQuestionsFile("testdata/questions.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	return &Set{Docs: res.Docs, Questions: qs}
}

// fixtureConfig fixes "now", so that time decay, and the table, do not
// change with the day the test runs.
func fixtureConfig() Config {
	cfg := DefaultConfig()
	cfg.Now = "2025-06-01"
	return cfg
}

func TestFixtureTable(t *testing.T) {
	rep, err := Run(context.Background(), fixture(t), fixtureConfig())
	if err != nil {
		t.Fatal(err)
	}
	var sb strings.Builder
	if err := rep.WriteTable(&sb); err != nil {
		t.Fatal(err)
	}
	golden.File(t, "testdata/table.golden", sb.String())
}
