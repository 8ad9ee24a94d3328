package graph

import "testing"

func BenchmarkScratchLoad(b *testing.B) {
	for b.Loop() {
		if _, _, err := LoadHetionet("/work/shared/data/hetionet"); err != nil {
			b.Fatal(err)
		}
	}
}
