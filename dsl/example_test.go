package dsl_test

import (
	"fmt"

	"github.com/medkb/medkb/dsl"
)

func ExampleParse() {
	s, err := dsl.Parse(`retrieve "chest pain" fuse rrf expand metapath "Disease -has_symptom-> Symptom" pack budget 512 kmin 1`)
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(s)
	// Output:
	// RETRIEVE "chest pain"
	// FUSE rrf
	// EXPAND metapath "Disease -has_symptom-> Symptom"
	// PACK budget 512 kmin 1
}

func ExampleCheck() {
	s, err := dsl.Parse(`RETRIEVE "chest pain" WHERE tier IN (t1, t2) PACK budget 512`)
	if err != nil {
		fmt.Println(err)
		return
	}
	q, err := dsl.Check(s)
	if err != nil {
		fmt.Println(err)
		return
	}
	f := q.Filter[0]
	fmt.Println(f.Field, f.Op, f.Values, f.Tiers, q.Fuse.Method, q.Fuse.K, q.Pack.Budget, q.Pack.Kmin, q.Limit)
	fmt.Println(q.Defaulted[dsl.ParamKmin], q.Defaulted[dsl.ParamLimit])
	// Output:
	// tier IN [T1 T2] [T1 T2] rrf 60 512 1 0
	// true true
}

func ExampleError() {
	_, err := dsl.Parse("RETRIEVE \"x\"\n  FUZE rrf(k=60)")
	fmt.Println(err)
	// Output:
	// 2:3: unexpected token "FUZE"; expected USING, WHERE, GATE, FUSE, EXPAND, RERANK, PACK, LIMIT or end of statement (did you mean FUSE?)
	//   FUZE rrf(k=60)
	//   ^
}
