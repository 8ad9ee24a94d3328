package medkb

import (
	"context"
	"path/filepath"
	"strings"
	"testing"

	"github.com/medkb/medkb/internal/base"
	"github.com/medkb/medkb/store"
)

// TestShowTierBy: Show says how each chunk's tier was decided, and whose
// decision it is: the document's (its tier field, its type, its whole
// text) or, for an untyped document of several chunks, the chunk's own.
func TestShowTierBy(t *testing.T) {
	db, err := Open(filepath.Join(t.TempDir(), "kb"), &Options{ChunkTokens: 40})
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	// An untyped note long enough for several chunks: a history narrative,
	// then a CT report.
	note := strings.Repeat("患者3天前受凉后出现发热、咳嗽，于当地医院查胸部CT示右下肺斑片影，予头孢类抗感染治疗，症状无好转，遂来我院。", 2) +
		"胸部CT：右肺下叶大片状实变影，其内可见支气管充气征，右侧少量胸腔积液。"
	docs := []Doc{
		{ID: "typed", Type: "lab", Text: "Creatinine 2.8 mg/dL."},
		{ID: "given", Tier: base.T2, Text: "Plan discussed with family."},
		{ID: "short", Text: "CT shows a 3 cm mass in the right upper lobe."},
		{ID: "note", Text: note},
	}
	if _, err := db.Ingest(context.Background(), docs); err != nil {
		t.Fatal(err)
	}
	views, err := db.Show([]string{"typed", "given", "short", "note"})
	if err != nil {
		t.Fatal(err)
	}
	for i, want := range []struct{ by, of string }{
		{"type table: lab", TierOfDocument},
		{"tier field", TierOfDocument},
		{"text rule: imaging", TierOfDocument},
	} {
		if c := views[i].Chunks[0]; c.TierBy != want.by || c.TierOf != want.of {
			t.Errorf("%s: tier by %q of %q, want %q of %q", views[i].ID, c.TierBy, c.TierOf, want.by, want.of)
		}
	}
	chunks := views[3].Chunks
	if len(chunks) < 2 {
		t.Fatalf("the note has %d chunk(s), want several", len(chunks))
	}
	if c := chunks[0]; c.TierOf != TierOfChunk || c.TierBy != "text rule: narrative" || c.Tier != "T4" {
		t.Errorf("the note's first chunk: %s by %q of %q, want T4 by the narrative rule, its own", c.Tier, c.TierBy, c.TierOf)
	}
	report := false
	for _, c := range chunks {
		if !strings.HasPrefix(c.Text, "胸部CT：") {
			continue
		}
		report = true
		if c.TierOf != TierOfChunk || c.TierBy != "text rule: imaging" || c.Tier != "T2" {
			t.Errorf("the note's CT report: %s by %q of %q, want T2 by the imaging rule, its own", c.Tier, c.TierBy, c.TierOf)
		}
	}
	if !report {
		t.Errorf("no chunk of the note starts with its CT report: %+v", chunks)
	}
}

// TestShowTierByNotRecorded: a chunk written before medkb recorded how its
// tier was decided shows none, and a rebuild records it.
func TestShowTierByNotRecorded(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "kb")
	db, err := Open(dir, nil)
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	puts, err := db.preparer().prepare(ctx, []base.Doc{{ID: "old", Type: "lab", Text: "Creatinine 2.8 mg/dL."}}, nil)
	if err != nil {
		t.Fatal(err)
	}
	for i := range puts[0].Chunks {
		puts[0].Chunks[i].TierBy, puts[0].Chunks[i].TierOwn = "", false // as an older medkb wrote them
	}
	if _, indexErr, err := db.commit(ctx, &store.Batch{Put: puts, Embedder: db.emb.Name(), Dim: db.emb.Dim()}); err != nil || indexErr != nil {
		t.Fatal(err, indexErr)
	}
	views, err := db.Show([]string{"old"})
	db.Close()
	if err != nil {
		t.Fatal(err)
	}
	if c := views[0].Chunks[0]; c.TierBy != "" || c.TierOf != "" || c.Tier != "T2" {
		t.Fatalf("old chunk: %s by %q of %q, want T2 by nothing recorded", c.Tier, c.TierBy, c.TierOf)
	}
	if _, err := Rebuild(ctx, dir, fastRebuild); err != nil {
		t.Fatal(err)
	}
	db = openChecked(t, dir, nil)
	defer db.Close()
	views, err = db.Show([]string{"old"})
	if err != nil {
		t.Fatal(err)
	}
	if c := views[0].Chunks[0]; c.TierBy != "type table: lab" || c.TierOf != TierOfDocument {
		t.Fatalf("rebuilt chunk: by %q of %q, want the type table, the document's", c.TierBy, c.TierOf)
	}
}
