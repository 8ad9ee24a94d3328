package planner_test

import (
	"context"
	"path/filepath"
	"strings"
	"testing"

	"github.com/medkb/medkb"
)

// copyForwardStore holds two patients' records in English and Chinese:
// one troponin line copied forward into later notes (same values), a
// near-copy with another value, the same line in another patient's
// record, and an unrelated administrative note.
func copyForwardStore(t *testing.T) *medkb.DB {
	t.Helper()
	db, err := medkb.Open(filepath.Join(t.TempDir(), "kb"), nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	en := "Troponin I 2.3 ng/mL, elevated; chest pain radiating to the left arm since this morning."
	zh := "肌钙蛋白I 2.3ng/mL，明显升高；胸痛向左臂放射，今晨起持续3小时。"
	docs := []medkb.Doc{
		{ID: "E1-lab-1", Patient: "E1", Type: "lab", Time: "2024-03-01", Text: en},
		{ID: "E1-lab-2", Patient: "E1", Type: "lab", Time: "2024-03-02", Text: en},
		{ID: "E1-lab-3", Patient: "E1", Type: "lab", Time: "2024-03-03", Text: "Copied forward: " + en},
		{ID: "E1-lab-4", Patient: "E1", Type: "lab", Time: "2024-03-04", Text: strings.Replace(en, "2.3", "0.4", 1)},
		{ID: "E1-ecg-1", Patient: "E1", Type: "ecg", Time: "2024-03-01", Text: "ECG: ST elevation in leads II, III and aVF; chest pain ongoing."},
		{ID: "E1-note-1", Patient: "E1", Type: "progress note", Time: "2024-03-02", Text: "Chest pain improved after nitroglycerin; troponin trend to be repeated."},
		{ID: "E1-note-2", Patient: "E1", Type: "progress note", Time: "2024-03-03", Text: "Chest pain recurred at night, troponin pending, heart rate 92 bpm."},
		{ID: "E1-admin-1", Patient: "E1", Type: "administrative", Time: "2024-03-03", Text: "Daughter asked for a parking voucher for the weekend visiting hours."},
		{ID: "E2-lab-1", Patient: "E2", Type: "lab", Time: "2024-03-02", Text: en},
		// Serial troponins and one note far from them (an outlier).
		{ID: "E3-lab-1", Patient: "E3", Type: "lab", Time: "2024-04-01", Text: "Troponin I 0.9 ng/mL at 06:00, chest pain persists."},
		{ID: "E3-lab-2", Patient: "E3", Type: "lab", Time: "2024-04-01", Text: "Troponin I 1.4 ng/mL at 09:00, chest pain persists."},
		{ID: "E3-lab-3", Patient: "E3", Type: "lab", Time: "2024-04-01", Text: "Troponin I 2.1 ng/mL at 12:00, chest pain easing."},
		{ID: "E3-lab-4", Patient: "E3", Type: "lab", Time: "2024-04-01", Text: "Troponin I 1.7 ng/mL at 15:00, chest pain easing."},
		{ID: "E3-lab-5", Patient: "E3", Type: "lab", Time: "2024-04-02", Text: "Troponin I 1.1 ng/mL at 06:00, no chest pain."},
		{ID: "E3-derm-1", Patient: "E3", Type: "lab", Time: "2024-04-02", Text: "Dermatology: benign seborrhoeic keratosis on the back, no biopsy needed."},
		{ID: "Z3-lab-1", Patient: "Z3", Type: "化验", Time: "2024-06-01", Text: "肌钙蛋白I 0.9ng/mL（6时），胸痛持续。"},
		{ID: "Z3-lab-2", Patient: "Z3", Type: "化验", Time: "2024-06-01", Text: "肌钙蛋白I 1.4ng/mL（9时），胸痛持续。"},
		{ID: "Z3-lab-3", Patient: "Z3", Type: "化验", Time: "2024-06-01", Text: "肌钙蛋白I 2.1ng/mL（12时），胸痛减轻。"},
		{ID: "Z3-lab-4", Patient: "Z3", Type: "化验", Time: "2024-06-01", Text: "肌钙蛋白I 1.7ng/mL（15时），胸痛减轻。"},
		{ID: "Z3-lab-5", Patient: "Z3", Type: "化验", Time: "2024-06-02", Text: "肌钙蛋白I 1.1ng/mL（6时），无胸痛。"},
		{ID: "Z3-derm-1", Patient: "Z3", Type: "化验", Time: "2024-06-02", Text: "皮肤科：背部脂溢性角化病，良性，无需活检。"},
		{ID: "Z1-lab-1", Patient: "Z1", Type: "化验", Time: "2024-05-01", Text: zh},
		{ID: "Z1-lab-2", Patient: "Z1", Type: "化验", Time: "2024-05-02", Text: zh},
		{ID: "Z1-lab-3", Patient: "Z1", Type: "化验", Time: "2024-05-03", Text: strings.Replace(zh, "2.3", "0.4", 1)},
		{ID: "Z2-lab-1", Patient: "Z2", Type: "化验", Time: "2024-05-02", Text: zh},
	}
	if _, err := db.Ingest(context.Background(), docs); err != nil {
		t.Fatal(err)
	}
	return db
}

// TestDedupCopyForward: copies of one line with the same values are
// packed once and dropped as duplicates of the kept copy; a copy with
// another value and another patient's copy are kept.
func TestDedupCopyForward(t *testing.T) {
	db := copyForwardStore(t)
	for _, tc := range []struct {
		src     string
		dropped []string // copies dropped as duplicates
		kept    []string // documents that must be packed
	}{
		{`RETRIEVE "troponin chest pain" PACK budget 512`,
			[]string{"E1-lab-1", "E1-lab-2", "E1-lab-3"}, []string{"E1-lab-4", "E2-lab-1"}},
		{`RETRIEVE "肌钙蛋白 胸痛" PACK budget 512`,
			[]string{"Z1-lab-1", "Z1-lab-2"}, []string{"Z1-lab-3", "Z2-lab-1"}},
	} {
		r := query(t, db, tc.src)
		dups := map[string]string{}
		for _, d := range r.Dropped {
			if d.Reason == "duplicate" && strings.HasPrefix(d.ID, tc.dropped[0][:2]) {
				dups[strings.TrimSuffix(d.ID, "#0")] = d.Detail
			}
		}
		// Of the copies, exactly one is packed; the others name it.
		var packed []string
		for _, doc := range tc.dropped {
			if packedText(r, doc) != "" {
				packed = append(packed, doc)
			}
		}
		if len(packed) != 1 || len(dups) != len(tc.dropped)-1 {
			t.Fatalf("%s: packed copies %v, duplicates %v\n%s", tc.src, packed, dups, r.Context)
		}
		for doc, detail := range dups {
			if !strings.Contains(detail, "of "+packed[0]+"#0 (") || !strings.Contains(detail, "cosine") && !strings.Contains(detail, "shingles") && !strings.Contains(detail, "contained") {
				t.Errorf("%s: %s dropped with detail %q, want the kept copy %s and the test", tc.src, doc, detail, packed[0])
			}
		}
		for _, doc := range tc.kept {
			if packedText(r, doc) == "" {
				t.Errorf("%s: %s not packed (dropped %v)\n%s", tc.src, doc, r.Dropped, r.Context)
			}
		}
		if !strings.Contains(r.Plan, "Dedup cosine>=0.95 or shingles>=0.8") {
			t.Errorf("%s: EXPLAIN has no Dedup line:\n%s", tc.src, r.Plan)
		}
		t.Logf("%s: kept %s, dropped %v", tc.src, packed[0], dups)
	}
}

// TestOutlierFlagged: in a patient's record, read whole, the
// dermatology note among serial troponins is far from the rest of the
// evidence: it is flagged as an outlier, with a reason, and still packed.
func TestOutlierFlagged(t *testing.T) {
	db := copyForwardStore(t)
	for _, tc := range []struct{ src, outlier string }{
		{`EXPLAIN ANALYZE RETRIEVE "summarise the findings" WHERE patient = "E3" PACK budget 1024`, "E3-derm-1"},
		{`EXPLAIN ANALYZE RETRIEVE "简述该病人的诊断及诊断依据" WHERE patient = "Z3" PACK budget 1024`, "Z3-derm-1"},
	} {
		r := query(t, db, tc.src)
		var outliers []string
		for _, it := range r.Items {
			if it.Provenance.Outlier {
				outliers = append(outliers, it.Doc)
				if !strings.HasPrefix(it.Provenance.OutlierReason, "mean cosine") {
					t.Errorf("%s: outlier reason %q", it.Doc, it.Provenance.OutlierReason)
				}
			}
		}
		if len(r.Items) != 6 || len(outliers) != 1 || outliers[0] != tc.outlier {
			t.Errorf("%d items, outliers %v, want all 6 and [%s]\n%s", len(r.Items), outliers, tc.outlier, r.Plan)
		}
		if !strings.Contains(r.Plan, "1 outliers flagged ("+tc.outlier+"#0)") {
			t.Errorf("EXPLAIN ANALYZE does not count the outlier:\n%s", r.Plan)
		}
	}
}
