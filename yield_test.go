package medkb

import (
	"context"
	"testing"
	"time"
)

// A read-only DB that yields to writers (an idle REPL) lets a writer in
// within its lock timeout, and its next call opens the store again and
// sees the write.
func TestReaderYieldsToWriter(t *testing.T) {
	dir := sampleDir(t)
	ctx := context.Background()
	repl, err := Open(dir, &Options{ReadOnly: true, YieldToWriters: true})
	if err != nil {
		t.Fatal(err)
	}
	defer repl.Close()
	if _, err := repl.Query(ctx, rebuildQueries[1]); err != nil {
		t.Fatal(err)
	}
	start := time.Now()
	w, err := Open(dir, &Options{LockTimeout: 5 * time.Second})
	if err != nil {
		t.Fatalf("writer beside an idle reader that yields: %v", err)
	}
	t.Logf("the writer got in after %s", time.Since(start))
	if _, err := w.Ingest(ctx, []Doc{crashDoc(1, 0)}); err != nil {
		t.Fatal(err)
	}
	done := make(chan error, 1)
	go func() { // the reader's next call waits for the writer
		_, err := repl.Query(ctx, rebuildQueries[1])
		done <- err
	}()
	time.Sleep(50 * time.Millisecond)
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	if err := <-done; err != nil {
		t.Fatalf("reader's query after the writer: %v", err)
	}
	if _, err := repl.Show([]string{crashID(1)}); err != nil {
		t.Fatalf("reader does not see the write: %v", err)
	}
	if err := repl.Close(); err != nil {
		t.Fatal(err)
	}
	if _, err := repl.Stats(); err != ErrClosed {
		t.Fatalf("stats after close: %v, want ErrClosed", err)
	}
}
