package planner_test

import (
	"context"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/medkb/medkb"
	"github.com/medkb/medkb/planner"
)

// query runs src against db and fails the test on an error.
func query(t *testing.T, db *medkb.DB, src string) *medkb.Result {
	t.Helper()
	r, err := db.Query(context.Background(), src)
	if err != nil {
		t.Fatalf("%s: %v", src, err)
	}
	return r
}

// packedText is the text packed of document doc, "" when none is.
func packedText(r *medkb.Result, doc string) string {
	var b strings.Builder
	for _, it := range r.Items {
		if it.Doc == doc {
			b.WriteString(it.Text)
		}
	}
	return b.String()
}

// TestTroponinQueries pins the first example of docs/query-language.md
// and the plain question: both pack the troponin report with its value.
func TestTroponinQueries(t *testing.T) {
	db := openSample(t)
	for _, src := range []string{
		`RETRIEVE "chest pain, troponin 2.3 ng/mL" WHERE patient = "P001" FUSE rrf(k=60) EXPAND metapath "Disease -has_symptom-> Symptom" PACK budget 256 kmin 1`,
		`RETRIEVE "troponin" WHERE patient = "P001" PACK budget 256`,
		`RETRIEVE "What was his troponin when he came in?" WHERE patient = "P001" PACK budget 256`,
	} {
		r := query(t, db, src)
		if got := packedText(r, "P001-lab-06"); !strings.Contains(got, "troponin I 2.3 ng/mL") {
			t.Errorf("%s: the troponin report is not packed with its value (packed %q)\n%s", src, got, r.Context)
		}
	}
}

// chineseStore holds only the sample's Chinese documents: two patients'
// records and five abstracts.
func chineseStore(t *testing.T) *medkb.DB {
	t.Helper()
	all := openSample(t)
	var zh []medkb.Doc
	err := all.Export(func(d *medkb.Doc) error {
		if d.Lang == "zh" {
			zh = append(zh, *d)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	db, err := medkb.Open(filepath.Join(t.TempDir(), "zh"), nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	if len(zh) < 20 {
		t.Fatalf("only %d Chinese documents in the sample", len(zh))
	}
	if _, err := db.Ingest(context.Background(), zh); err != nil {
		t.Fatal(err)
	}
	return db
}

// TestOffTopicQuestionFindsNothing: a question the store knows nothing
// about packs nothing, lists nothing under LIMIT, and says why.
func TestOffTopicQuestionFindsNothing(t *testing.T) {
	for name, db := range map[string]*medkb.DB{"Chinese records": chineseStore(t), "sample": openSample(t)} {
		for _, src := range []string{
			`RETRIEVE "how to adjust bicycle brakes and chain tension" PACK budget 256`,
			`RETRIEVE "how to adjust bicycle brakes and chain tension"`,
		} {
			r := query(t, db, src)
			if len(r.Items) != 0 || r.Relevance.Mode != planner.ModeNone || !strings.HasPrefix(r.Relevance.Note, "nothing relevant") {
				t.Errorf("%s, %s: %d items, relevance %q: %s", name, src, len(r.Items), r.Relevance.Mode, r.Relevance.Note)
			}
		}
	}
}

// TestQuestionsAboutOnePatient: a generic question reads the patient's
// whole record, its tissue or genetic diagnosis first; a specific one
// packs the report it asks for, found by a concept ("肾功能" for a line of
// 肌酐) or by the report's type. doc "" looks in the whole context.
func TestQuestionsAboutOnePatient(t *testing.T) {
	db := openSample(t)
	for _, tc := range []struct {
		src, mode, doc, keeps string
	}{
		{`RETRIEVE "简述该病人的诊断及诊断依据" WHERE patient = "P004" PACK budget 512`, planner.ModeRecord, "", "腺癌"},
		{`RETRIEVE "Summarise the findings." WHERE patient = "P003" PACK budget 512`, planner.ModeRecord, "", "EGFR exon 19 deletion"},
		{`RETRIEVE "该病人的血常规结果如何？" WHERE patient = "P004" PACK budget 128`, planner.ModeQuery, "P004-xcg-12", "血红蛋白121g/L"},
		{`RETRIEVE "肾功能怎么样？" WHERE patient = "P002" PACK budget 128`, planner.ModeQuery, "P002-sh-12", "血肌酐105μmol/L"},
		{`RETRIEVE "胃镜看到了什么？" WHERE patient = "P004" PACK budget 256`, planner.ModeQuery, "P004-wj-05", "溃疡型病变"},
	} {
		r := query(t, db, tc.src)
		if r.Relevance.Mode != tc.mode {
			t.Errorf("%s: relevance mode %q, want %q (%s)", tc.src, r.Relevance.Mode, tc.mode, r.Relevance.Note)
		}
		got := r.Context
		if tc.doc != "" {
			got = packedText(r, tc.doc)
		}
		if !strings.Contains(got, tc.keeps) {
			t.Errorf("%s: %s is not packed with %q\n%s", tc.src, tc.doc, tc.keeps, r.Context)
		}
	}
}

// TestContextNeverDisplacesEvidence: in a patient's record the chunks no
// retriever found for a specific question come after the relevant ones:
// each packed context item fits only in the room the relevant evidence
// left, and every relevant chunk that fits the budget alone is packed
// before any context is.
func TestContextNeverDisplacesEvidence(t *testing.T) {
	db := openSample(t)
	for _, q := range []string{`RETRIEVE "troponin" WHERE patient = "P001"`, `RETRIEVE "chest pain" WHERE patient = "P001"`,
		`RETRIEVE "肌酐 尿蛋白" WHERE patient = "P002"`} {
		for _, budget := range []int{96, 160, 256, 400} {
			checkContextAfterEvidence(t, query(t, db, q+" PACK budget "+strconv.Itoa(budget)))
		}
	}
}

// checkContextAfterEvidence fails the test when context was packed while
// a relevant chunk that would have fit in the room the relevant evidence
// left was dropped.
func checkContextAfterEvidence(t *testing.T, r *medkb.Result) {
	t.Helper()
	fill, left := 0, r.Budget
	for _, it := range r.Items {
		if it.Provenance.Context {
			fill++
		} else {
			left -= it.Tokens
		}
	}
	if fill == 0 {
		return
	}
	tokens := regexp.MustCompile(`(\d+) tokens`)
	for _, d := range r.Dropped {
		if d.Reason == "context" || d.Reason == "not-relevant" {
			continue
		}
		cheapest := r.Budget
		for _, m := range tokens.FindAllStringSubmatch(d.Detail, -1) {
			n, _ := strconv.Atoi(m[1])
			cheapest = min(cheapest, n)
		}
		// The packer costs a line under the largest citation number, the
		// context under its own: a token or two apart.
		if cheapest+2 <= left {
			t.Errorf("%s: %s (relevant, %d tokens) dropped for %s with %d tokens left, while %d context item(s) were packed",
				r.Query, d.ID, cheapest, d.Reason, left, fill)
		}
	}
}
