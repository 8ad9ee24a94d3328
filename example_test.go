package medkb_test

import (
	"context"
	"fmt"
	"log"
	"os"
	"path/filepath"

	"github.com/medkb/medkb"
)

func Example() {
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
		{ID: "p1-allergy", Text: "Severe allergy: anaphylaxis to penicillin in 2015.", Type: "allergy", Patient: "P1", Time: "2019-03-02"},
		{ID: "p1-lab", Text: "Troponin I 2.3 ng/mL, markedly raised. Creatinine 1.1 mg/dL.", Type: "lab", Patient: "P1", Time: "2019-03-02"},
		{ID: "p1-complaint", Text: "Crushing chest pain for two hours, radiating to the left arm.", Type: "complaint", Patient: "P1", Time: "2019-03-02"},
	}
	if _, err := db.Ingest(ctx, docs); err != nil {
		log.Fatal(err)
	}

	res, err := db.Query(ctx, `RETRIEVE "chest pain, troponin" WHERE patient = "P1" PACK budget 100 kmin 1 now "2019-03-03"`)
	if err != nil {
		log.Fatal(err)
	}
	for _, it := range res.Items {
		fmt.Printf("[%d] %s %s state %s\n", it.Rank, it.Tier, it.Doc, it.State)
	}
	fmt.Println("tokens used within budget:", res.TokensUsed <= res.Budget)
	fmt.Print(res.Context)
	fmt.Println("Sources:")
	for _, src := range res.Sources {
		fmt.Println(src)
	}
	// Output:
	// [1] T1 p1-allergy state A
	// [2] T2 p1-lab state A
	// [3] T4 p1-complaint state A
	// tokens used within budget: true
	// [1] T1 2019-03-02: Severe allergy: anaphylaxis to penicillin in 2015.
	// [2] T2 2019-03-02: Troponin I 2.3 ng/mL, markedly raised. Creatinine 1.1 mg/dL.
	// [3] T4 2019-03-02: Crushing chest pain for two hours, radiating to the left arm.
	// Sources:
	// [1] p1-allergy#0, allergy, patient P1, 2019-03-02
	// [2] p1-lab#0, lab, patient P1, 2019-03-02
	// [3] p1-complaint#0, complaint, patient P1, 2019-03-02
}
