package store

import (
	"errors"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

// me is how a lock error names this test process.
func me() string {
	return "pid " + strconv.Itoa(os.Getpid()) + " (" + filepath.Base(os.Args[0])
}

func newStore(t *testing.T) string {
	t.Helper()
	kb := filepath.Join(t.TempDir(), "kb")
	s, err := Open(kb, nil)
	if err != nil {
		t.Fatal(err)
	}
	s.Close()
	return kb
}

// A writer that waits for readers in vain names them, and only the live
// ones: the record of a reader that died without closing is removed.
func TestWriterNamesReaders(t *testing.T) {
	kb := newStore(t)
	r, err := Open(kb, &Options{ReadOnly: true})
	if err != nil {
		t.Fatal(err)
	}
	dead := filepath.Join(kb, readersDir, "r-dead")
	if err := os.WriteFile(dead, []byte("999999999\tmedkb repl\tgen-000001\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	_, err = Open(kb, &Options{LockTimeout: 100 * time.Millisecond})
	if !errors.Is(err, ErrLocked) || !strings.Contains(err.Error(), "readers: "+me()) || strings.Contains(err.Error(), "999999999") {
		t.Fatalf("writer beside a reader: %v; want ErrLocked naming %s and no dead reader", err, me())
	}
	if _, err := os.Stat(dead); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("the dead reader's record is still there: %v", err)
	}
	r.Close()
	if ents, _ := os.ReadDir(filepath.Join(kb, readersDir)); len(ents) != 0 {
		t.Errorf("records left after the reader closed: %v", ents)
	}
	w, err := Open(kb, &Options{LockTimeout: 100 * time.Millisecond})
	if err != nil {
		t.Fatalf("writer after the reader closed: %v", err)
	}
	// A reader that waits for the writer in vain names it.
	_, err = Open(kb, &Options{ReadOnly: true, LockTimeout: 100 * time.Millisecond})
	if !errors.Is(err, ErrLocked) || !strings.Contains(err.Error(), "a writer, "+me()) {
		t.Fatalf("reader beside a writer: %v; want ErrLocked naming the writer %s", err, me())
	}
	w.Close()
}

// A writer that announced its intent makes new readers wait, not fail,
// while the readers that have the store open finish.
func TestIntentHoldsNewReaders(t *testing.T) {
	kb := newStore(t)
	old, err := Open(kb, &Options{ReadOnly: true})
	if err != nil {
		t.Fatal(err)
	}
	opened := make(chan error, 1)
	go func() {
		w, err := Open(kb, &Options{LockTimeout: 5 * time.Second})
		if err == nil {
			time.Sleep(100 * time.Millisecond) // a short write
			err = w.Close()
		}
		opened <- err
	}()
	intent, err := os.Open(filepath.Join(kb, intentFile))
	for i := 0; err != nil && i < 100; i++ { // until the writer made it
		time.Sleep(10 * time.Millisecond)
		intent, err = os.Open(filepath.Join(kb, intentFile))
	}
	if err != nil {
		t.Fatal(err)
	}
	defer intent.Close()
	for got, _ := tryLockShared(intent); got; got, _ = tryLockShared(intent) {
		intent.Close() // drop our shared lock and look again
		time.Sleep(5 * time.Millisecond)
		intent, _ = os.Open(filepath.Join(kb, intentFile))
	}
	if _, err := Open(kb, &Options{ReadOnly: true, LockTimeout: 100 * time.Millisecond}); !errors.Is(err, ErrLocked) {
		t.Fatalf("new reader while a writer waits: %v, want it to wait", err)
	}
	late := make(chan error, 1)
	go func() {
		r, err := Open(kb, &Options{ReadOnly: true, LockTimeout: 5 * time.Second})
		if err == nil {
			err = r.Close()
		}
		late <- err
	}()
	old.Close()
	if err := <-opened; err != nil {
		t.Fatalf("writer: %v", err)
	}
	if err := <-late; err != nil {
		t.Fatalf("the reader that waited: %v", err)
	}
}

// Readers whose opens overlap without end do not starve a writer.
func TestWriterBesideAStreamOfReaders(t *testing.T) {
	kb := newStore(t)
	var stop atomic.Bool
	var failed atomic.Int64
	var wg sync.WaitGroup
	for range 4 {
		wg.Go(func() {
			for !stop.Load() {
				r, err := Open(kb, &Options{ReadOnly: true, LockTimeout: 5 * time.Second})
				if err != nil {
					failed.Add(1)
					continue
				}
				time.Sleep(30 * time.Millisecond) // a query
				r.Close()
			}
		})
	}
	time.Sleep(100 * time.Millisecond)
	for range 3 {
		w, err := Open(kb, &Options{LockTimeout: 3 * time.Second})
		if err != nil {
			t.Fatalf("writer beside readers: %v", err)
		}
		time.Sleep(50 * time.Millisecond)
		w.Close()
	}
	stop.Store(true)
	wg.Wait()
	if failed.Load() > 0 {
		t.Fatalf("%d reader opens failed", failed.Load())
	}
}
