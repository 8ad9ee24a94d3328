package embed_test

import (
	"context"
	"fmt"

	"github.com/medkb/medkb/index/embed"
)

func ExampleNewHash() {
	e := embed.NewHash(0)
	vecs, err := e.Embed(context.Background(), []string{
		"Breast tumors treated with tamoxifen",
		"tamoxifen therapy for a breast tumor",
		"acute chest pain radiating to the left arm",
	})
	if err != nil {
		panic(err)
	}
	cosine := func(a, b []float32) (s float32) {
		for i := range a {
			s += a[i] * b[i]
		}
		return s
	}
	fmt.Println(e.Name(), e.Dim())
	fmt.Printf("similar %.2f, unrelated %.2f\n", cosine(vecs[0], vecs[1]), cosine(vecs[0], vecs[2]))
	// Output:
	// hash-v1 384
	// similar 0.69, unrelated -0.01
}
