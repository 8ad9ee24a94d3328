package rrce

import (
	"context"
	"testing"
)

func BenchmarkZZPrepare(b *testing.B) {
	cases, _ := MedQACases("../../../../shared/data/medqa/medqa_test.jsonl", 50, 1)
	for b.Loop() {
		Prepare(context.Background(), cases, DefaultOptions())
	}
}
