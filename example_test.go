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
	db, done := exampleStore(
		medkb.Doc{ID: "p1-allergy", Text: "Severe allergy: anaphylaxis to penicillin in 2015.", Type: "allergy", Patient: "P1", Time: "2019-03-02"},
		medkb.Doc{ID: "p1-lab", Text: "Troponin I 2.3 ng/mL, markedly raised. Creatinine 1.1 mg/dL.", Type: "lab", Patient: "P1", Time: "2019-03-02"},
		medkb.Doc{ID: "p1-complaint", Text: "Crushing chest pain for two hours, radiating to the left arm.", Type: "complaint", Patient: "P1", Time: "2019-03-02"},
	)
	defer done()

	res, err := db.Query(context.Background(), `RETRIEVE "chest pain, troponin" WHERE patient = "P1" PACK budget 100 kmin 1 now "2019-03-03"`)
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

// A program that puts a user's words or an id into a statement writes
// them as named parameters: the statement holds $q and $p, and the
// values are bound after parsing, so no quote, keyword or comment in
// them can change the statement around them.
func Example_parameters() {
	db, done := exampleStore(
		medkb.Doc{ID: "p1-lab", Text: "Troponin I 2.3 ng/mL, markedly raised.", Type: "lab", Patient: "P1", Time: "2024-03-05"},
		medkb.Doc{ID: "p2-lab", Text: "Troponin I 0.01 ng/mL, normal.", Type: "lab", Patient: "P2", Time: "2024-03-05"},
	)
	defer done()

	question := `Troponin I raised?" WHERE patient = "P2` // as a user typed it
	res, err := db.QueryParams(context.Background(), `RETRIEVE $q WHERE patient = $p PACK budget 64`,
		medkb.Params{"q": question, "p": "P1"})
	if err != nil {
		log.Fatal(err)
	}
	fmt.Print(res.Context)
	// Output:
	// [1] T2 2024-03-05: Troponin I 2.3 ng/mL, markedly raised.
}

// exampleStore opens a new store in a temporary directory and ingests
// docs; done closes and removes it.
func exampleStore(docs ...medkb.Doc) (db *medkb.DB, done func()) {
	dir, err := os.MkdirTemp("", "medkb-example-")
	if err != nil {
		log.Fatal(err)
	}
	db, err = medkb.Open(filepath.Join(dir, "kb"), nil)
	if err != nil {
		os.RemoveAll(dir)
		log.Fatal(err)
	}
	done = func() {
		db.Close()
		os.RemoveAll(dir)
	}
	if _, err := db.Ingest(context.Background(), docs); err != nil {
		done()
		log.Fatal(err)
	}
	return db, done
}

// A caller's judge labels each item of a result as supporting or
// contradicting a claim; Weigh sums each side's evidence reliability
// (study design, then age) and gives the verdict.
func ExampleResult_Weigh() {
	db, done := exampleStore(
		medkb.Doc{ID: "meta", Title: "Statins after stroke: a meta-analysis of randomised trials", Evidence: "meta-analysis",
			Text: "Statin therapy reduced recurrent stroke.", Published: "2024-01-01"},
		medkb.Doc{ID: "case", Title: "Recurrent stroke on a statin: a case report", Evidence: "case report",
			Text: "A patient on statin therapy had a recurrent stroke.", Published: "2024-01-01"},
	)
	defer done()
	res, err := db.Query(context.Background(), `RETRIEVE "statin recurrent stroke" PACK budget 200 now "2025-01-01"`)
	if err != nil {
		log.Fatal(err)
	}
	t, err := res.Weigh(map[string]string{"meta#0": medkb.StanceSupports, "case#0": medkb.StanceContradicts}, medkb.DefaultMargin)
	if err != nil {
		log.Fatal(err)
	}
	fmt.Printf("support %.2f, contradict %.2f: %s\n", t.Support, t.Contradict, t.Verdict)
	// Output:
	// support 0.99, contradict 0.24: supported
}
