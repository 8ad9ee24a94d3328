package medkb_test

import (
	"context"
	"fmt"
	"log"
	"os"
	"path/filepath"

	"github.com/medkb/medkb"
	"github.com/medkb/medkb/dsl"
)

// Statements are text, and the language has no parameters to bind yet:
// a program that puts a user's words or an id into a statement writes
// them as string literals with dsl.Quote, so that no quote, keyword or
// comment in them can change the statement around them.
func Example_quotedValues() {
	dir, err := os.MkdirTemp("", "medkb-example-")
	if err != nil {
		log.Fatal(err)
	}
	defer os.RemoveAll(dir)

	db, err := medkb.Open(filepath.Join(dir, "kb"), nil)
	if err != nil {
		log.Fatal(err)
	}
	defer db.Close()

	ctx := context.Background()
	docs := []medkb.Doc{
		{ID: "p1-lab", Text: "Troponin I 2.3 ng/mL, markedly raised.", Type: "lab", Patient: "P1", Time: "2024-03-05"},
		{ID: "p2-lab", Text: "Troponin I 0.01 ng/mL, normal.", Type: "lab", Patient: "P2", Time: "2024-03-05"},
	}
	if _, err := db.Ingest(ctx, docs); err != nil {
		log.Fatal(err)
	}

	question := `Troponin I raised?" WHERE patient = "P2` // as a user typed it
	patient := "P1"
	stmt := "RETRIEVE " + dsl.Quote(question) + " WHERE patient = " + dsl.Quote(patient) + " PACK budget 64"
	fmt.Println(stmt)

	res, err := db.Query(ctx, stmt)
	if err != nil {
		log.Fatal(err)
	}
	fmt.Print(res.Context)
	// Output:
	// RETRIEVE "Troponin I raised?\" WHERE patient = \"P2" WHERE patient = "P1" PACK budget 64
	// [1] T2 2024-03-05: Troponin I 2.3 ng/mL, markedly raised.
}
