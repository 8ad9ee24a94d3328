package dsl

import "testing"

const benchStatement = `RETRIEVE "chest pain, troponin 2.3 ng/mL" USING bm25(k=50), vector(k=50)
  WHERE tier IN (T1, T2) AND time >= "2018-01-01" AND meta.科室 = "心内科"
  FUSE rrf(k=60) EXPAND metapath "Disease -has_symptom-> Symptom" PACK budget 512 kmin 1`

func BenchmarkParse(b *testing.B) {
	for b.Loop() {
		if _, err := Parse(benchStatement); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkParseAndCheck(b *testing.B) {
	for b.Loop() {
		s, err := Parse(benchStatement)
		if err != nil {
			b.Fatal(err)
		}
		if _, err := Check(s); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkSyntaxError measures the error path, which re-parses once per
// vocabulary token to list what was expected.
func BenchmarkSyntaxError(b *testing.B) {
	src := benchStatement + " FUZE rrf"
	for b.Loop() {
		if _, err := Parse(src); err == nil {
			b.Fatal("no error")
		}
	}
}

func BenchmarkString(b *testing.B) {
	s, err := Parse(benchStatement)
	if err != nil {
		b.Fatal(err)
	}
	for b.Loop() {
		_ = s.String()
	}
}
