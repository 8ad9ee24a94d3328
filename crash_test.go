package medkb

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"
)

// The crash harness runs writers in a child process (this test binary,
// re-executed to run TestCrashChild), kills them with SIGKILL at random
// moments and checks what the next open finds. The child reports on
// stdout: "READY" once the store is open, "BEGIN a b" before the Ingest
// call that writes documents a..b-1, "ACK a b" after it returned
// successfully, "DONE" at the end.

// Environment of the child process.
const (
	envChild = "MEDKB_CRASH_CHILD" // "ingest", "rebuild" or "open"
	envDir   = "MEDKB_CRASH_DIR"
	envFrom  = "MEDKB_CRASH_FROM" // first new document number
	envTo    = "MEDKB_CRASH_TO"   // stop before this one
	envBatch = "MEDKB_CRASH_BATCH"
)

// crashTypes cycles the document types so every tier and state B occur.
var crashTypes = []string{"lab", "pathology", "complaint", "imaging", "history", "exam", ""}

// crashDoc is document i in version v: every text names troponin, so a
// BM25 query restricted to one document finds it, and ends its first
// chunk with a sign-off, which state B drops; every seventh is long
// enough for several chunks.
func crashDoc(i, v int) Doc {
	var b strings.Builder
	fmt.Fprintf(&b, "Note %d, version %d. Troponin I %d.%d ng/mL on admission; creatinine %d umol/L. ", i, v, i%9, v%10, 60+i%80)
	fmt.Fprintf(&b, "The patient complains of chest pain radiating to the left arm for %d hours. ", 1+i%12)
	b.WriteString("Results were reviewed and released by the duty biochemist. ")
	if i%7 == 0 {
		for k := 0; k < 40; k++ {
			fmt.Fprintf(&b, "Follow-up %d: blood pressure %d/%d mmHg, pulse %d per minute, no new findings. ", k, 110+k, 70+k%20, 60+k)
		}
	}
	return Doc{ID: crashID(i), Text: b.String(), Type: crashTypes[i%len(crashTypes)],
		Patient: fmt.Sprintf("P%04d", i%500), Time: fmt.Sprintf("20%02d-%02d-01", 10+i%15, 1+i%12)}
}

func crashID(i int) string { return fmt.Sprintf("doc-%06d", i) }

func docCount(t *testing.T, db *DB) int {
	t.Helper()
	s, err := db.Stats()
	if err != nil {
		t.Fatal(err)
	}
	return s.Docs
}

// TestCrashChild is the child process of the crash tests; it does nothing
// in a normal test run.
func TestCrashChild(t *testing.T) {
	mode := os.Getenv(envChild)
	if mode == "" {
		t.Skip("helper process of the crash tests")
	}
	var err error
	switch mode {
	case "ingest":
		err = crashIngest()
	case "rebuild":
		fmt.Println("READY")
		_, err = Rebuild(context.Background(), os.Getenv(envDir), &RebuildOptions{Grace: 10 * time.Millisecond})
	case "open": // a read-write open, which repairs the BM25 index
		var db *DB
		if db, err = Open(os.Getenv(envDir), nil); err == nil {
			err = db.Close()
		}
	}
	if err != nil {
		fmt.Println("ERR", err)
		os.Exit(3)
	}
	fmt.Println("DONE")
}

// crashIngest ingests documents envFrom..envTo-1 in batches, each batch
// also replacing a few documents of earlier batches with a new version.
func crashIngest() error {
	from, _ := strconv.Atoi(os.Getenv(envFrom))
	to, _ := strconv.Atoi(os.Getenv(envTo))
	size, _ := strconv.Atoi(os.Getenv(envBatch))
	db, err := Open(os.Getenv(envDir), nil)
	if err != nil {
		return err
	}
	defer db.Close()
	fmt.Println("READY")
	ctx := context.Background()
	for a := from; a < to; a += size {
		b := min(a+size, to)
		var docs []Doc
		for i := a; i < b; i++ {
			docs = append(docs, crashDoc(i, 0))
		}
		for k := 0; k < size/4 && a > from; k++ { // replace documents this run wrote
			docs = append(docs, crashDoc(from+rand.IntN(a-from), 1+rand.IntN(100)))
		}
		fmt.Println("BEGIN", a, b)
		if _, err := db.Ingest(ctx, docs); err != nil {
			return err
		}
		fmt.Println("ACK", a, b)
	}
	return nil
}

// child is one run of the child process.
type child struct {
	cmd   *exec.Cmd
	lines chan string
}

func startChild(t testing.TB, env ...string) *child {
	t.Helper()
	cmd := exec.Command(os.Args[0], "-test.run=^TestCrashChild$", "-test.count=1")
	cmd.Env = append(os.Environ(), env...)
	cmd.Stderr = os.Stderr
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	c := &child{cmd: cmd, lines: make(chan string, 1024)}
	go func() {
		sc := bufio.NewScanner(out)
		for sc.Scan() {
			c.lines <- sc.Text()
		}
		close(c.lines)
	}()
	return c
}

// waitFor returns when the child prints a line starting with line
// (true) or ends (false).
func (c *child) waitFor(t testing.TB, line string, seen func(string)) bool {
	t.Helper()
	timeout := time.After(2 * time.Minute)
	for {
		select {
		case l, ok := <-c.lines:
			if !ok {
				return false
			}
			seen(l)
			if strings.HasPrefix(l, line) {
				return true
			}
		case <-timeout:
			c.cmd.Process.Kill()
			t.Fatalf("child printed no %q in 2 minutes", line)
		}
	}
}

// kill sends SIGKILL (unless the child ended), waits for it and hands
// every line it printed to seen.
func (c *child) kill(seen func(string)) {
	c.cmd.Process.Kill()
	c.cmd.Wait()
	for l := range c.lines {
		seen(l)
	}
}

// ledger tracks what the children were told and what they acknowledged.
type ledger struct {
	acked    map[int]bool
	unacked  map[int]bool // written by a batch killed before its ACK
	inflight [2]int       // the batch begun and not acknowledged, if any
	issued   int          // documents 0..issued-1 were handed to a child
	newAcked []int        // acknowledged since the last verify
	errs     []string
}

func newLedger() *ledger { return &ledger{acked: map[int]bool{}, unacked: map[int]bool{}} }

func (l *ledger) see(line string) {
	f := strings.Fields(line)
	if len(f) == 0 {
		return
	}
	switch f[0] {
	case "BEGIN", "ACK":
		a, _ := strconv.Atoi(f[1])
		b, _ := strconv.Atoi(f[2])
		if f[0] == "BEGIN" {
			l.inflight = [2]int{a, b}
			l.issued = max(l.issued, b)
			return
		}
		for i := a; i < b; i++ {
			l.acked[i] = true
			l.newAcked = append(l.newAcked, i)
		}
		l.inflight = [2]int{}
	case "ERR":
		l.errs = append(l.errs, line)
	}
}

// verify opens dir read-write (replaying what the index missed), checks
// it and compares it with the ledger: every acknowledged document present
// and searchable, the batch in flight at the kill all there or all absent,
// nothing else. It returns the number of documents.
func (l *ledger) verify(t testing.TB, dir string) int {
	t.Helper()
	if len(l.errs) > 0 {
		t.Fatalf("child failed: %v", l.errs)
	}
	db, err := Open(dir, nil)
	if err != nil {
		t.Fatalf("reopen after kill: %v", err)
	}
	defer db.Close()
	if err := db.verify(); err != nil {
		t.Fatalf("after kill: %v", err)
	}
	present := map[int]bool{}
	err = db.Export(func(d *Doc) error {
		n, err := strconv.Atoi(strings.TrimPrefix(d.ID, "doc-"))
		present[n] = true
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	inflight := map[bool]int{}
	for i := l.inflight[0]; i < l.inflight[1]; i++ {
		inflight[present[i]]++
	}
	if len(inflight) > 1 {
		t.Fatalf("batch %d..%d is half written: %d documents present, %d absent", l.inflight[0], l.inflight[1], inflight[true], inflight[false])
	}
	for i := 0; i < l.issued; i++ {
		inFlight := i >= l.inflight[0] && i < l.inflight[1]
		if l.acked[i] && !present[i] {
			t.Fatalf("acknowledged %s is missing", crashID(i))
		}
		if present[i] && !l.acked[i] && !l.unacked[i] && !inFlight {
			t.Fatalf("%s is present but was never written", crashID(i))
		}
	}
	ctx := context.Background()
	for _, i := range l.newAcked {
		q := fmt.Sprintf(`RETRIEVE "troponin" USING bm25(k=1) WHERE doc = %q`, crashID(i))
		res, err := db.Query(ctx, q)
		if err != nil || len(res.Items) == 0 {
			t.Fatalf("acknowledged %s is not searchable: %v", crashID(i), err)
		}
	}
	l.newAcked = nil
	for i := l.inflight[0]; i < l.inflight[1]; i++ {
		l.unacked[i] = present[i] // settled: the next round starts after it
	}
	l.inflight = [2]int{}
	return len(present)
}

// crashRounds runs children that ingest documents from..to, killing each
// after a random delay from its READY (or, when early, from its start).
type crashRounds struct {
	dir      string
	to       int
	batch    int
	maxDelay time.Duration
	rng      *rand.Rand
}

// round runs one child and reports whether it finished (DONE) unkilled.
func (r *crashRounds) round(t testing.TB, l *ledger, early bool) bool {
	t.Helper()
	c := startChild(t, envChild+"=ingest", envDir+"="+r.dir, envFrom+"="+strconv.Itoa(l.issued),
		envTo+"="+strconv.Itoa(r.to), envBatch+"="+strconv.Itoa(r.batch))
	done := false
	see := func(s string) {
		done = done || s == "DONE"
		l.see(s)
	}
	if !early && !c.waitFor(t, "READY", see) {
		c.kill(see)
		return done
	}
	// Until a batch is acknowledged, a round lets one through before its
	// random delay: on a slow machine (or under -race) every kill could
	// otherwise come before the first acknowledgement and test nothing.
	if !early && len(l.acked) == 0 && !c.waitFor(t, "ACK", see) {
		c.kill(see)
		return done
	}
	time.Sleep(time.Duration(r.rng.Int64N(int64(r.maxDelay))))
	c.kill(see)
	return done
}

// rounds is full, or short under go test -short: the crash and full-disk
// loops then take every path they take in full (CI also runs them so
// under -race) at a fraction of the cost.
func rounds(full, short int) int {
	if testing.Short() {
		return short
	}
	return full
}

func crashSeed(t testing.TB) *rand.Rand {
	seed := uint64(time.Now().UnixNano())
	if s := os.Getenv("MEDKB_CRASH_SEED"); s != "" {
		seed, _ = strconv.ParseUint(s, 10, 64)
	}
	t.Logf("MEDKB_CRASH_SEED=%d", seed)
	return rand.New(rand.NewPCG(seed, seed))
}

// TestCrashDuringIngest kills an ingesting child 20 times (8 with
// -short), some while it opens (and replays), most while it writes, and
// checks the store after every kill.
func TestCrashDuringIngest(t *testing.T) {
	r := &crashRounds{dir: filepath.Join(t.TempDir(), "kb"), to: 1 << 30, batch: 10,
		maxDelay: 300 * time.Millisecond, rng: crashSeed(t)}
	l := newLedger()
	kills := rounds(20, 8)
	for k := 0; k < kills; k++ {
		r.round(t, l, k%5 == 4)
		l.verify(t, r.dir)
	}
	if len(l.acked) == 0 {
		t.Fatal("no batch was acknowledged before a kill: the harness tested nothing")
	}
	t.Logf("%d kills, %d documents acknowledged, store consistent after each", kills, len(l.acked))
}

// TestCrashLong is the acceptance run (MEDKB_LONG=1): six or more
// kill -9s during a 30,000-document ingest leave a consistent store, and a
// full re-ingest afterwards yields exactly 30,000 documents.
func TestCrashLong(t *testing.T) {
	if os.Getenv("MEDKB_LONG") == "" {
		t.Skip("set MEDKB_LONG=1 for the 30,000-document crash run")
	}
	const total = 30000
	r := &crashRounds{dir: filepath.Join(t.TempDir(), "kb"), to: total, batch: 500,
		maxDelay: 8 * time.Second, rng: crashSeed(t)}
	l := newLedger()
	start := time.Now()
	kills := 0
	for {
		done := r.round(t, l, false)
		n := l.verify(t, r.dir)
		if done {
			break
		}
		kills++
		t.Logf("kill %d at %s: %d documents stored, %d acknowledged; check ok", kills, time.Since(start).Round(time.Millisecond), n, len(l.acked))
	}
	if kills < 6 {
		t.Fatalf("only %d kills before the ingest finished", kills)
	}
	// The full re-ingest: every document again, in batches, no kill.
	db, err := Open(r.dir, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	for a := 0; a < total; a += r.batch {
		var docs []Doc
		for i := a; i < min(a+r.batch, total); i++ {
			docs = append(docs, crashDoc(i, 0))
		}
		if _, err := db.Ingest(context.Background(), docs); err != nil {
			t.Fatal(err)
		}
	}
	if err := db.verify(); err != nil {
		t.Fatal(err)
	}
	s, _ := db.Stats()
	if s.Docs != total {
		t.Fatalf("after the full re-ingest: %d documents, want %d", s.Docs, total)
	}
	t.Logf("%d kills; full re-ingest: %d documents, %d chunks, check ok; %s in all", kills, s.Docs, s.Chunks, time.Since(start).Round(time.Second))
}

// TestCrashDuringRepair deletes the BM25 segments of a store and kills
// the read-write open that rebuilds the index, at random moments, 12
// times (6 with -short): whatever the kill interrupts (building beside, the two renames),
// the next open repairs again and the store checks clean, with nothing
// left beside the index.
func TestCrashDuringRepair(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "kb")
	db, err := Open(dir, nil)
	if err != nil {
		t.Fatal(err)
	}
	var docs []Doc
	for i := range 400 {
		docs = append(docs, crashDoc(i, 0))
	}
	if _, err := db.Ingest(context.Background(), docs); err != nil {
		t.Fatal(err)
	}
	db.Close()
	rng := crashSeed(t)
	bm := filepath.Join(dir, "gen-000001", "bm25")
	kills := rounds(12, 6)
	interrupted, leftovers := 0, 0
	for k := range kills {
		zaps, _ := filepath.Glob(filepath.Join(bm, "store", "*.zap"))
		for _, z := range zaps {
			if err := os.Remove(z); err != nil {
				t.Fatal(err)
			}
		}
		c := startChild(t, envChild+"=open", envDir+"="+dir)
		time.Sleep(time.Duration(rng.Int64N(int64(400 * time.Millisecond))))
		done := false
		c.kill(func(l string) {
			done = done || l == "DONE"
			if strings.HasPrefix(l, "ERR") {
				t.Fatalf("kill %d: child: %s", k, l)
			}
		})
		if !done {
			interrupted++
		}
		if _, err := os.Stat(bm + ".rebuilding"); err == nil {
			leftovers++
		}
		db := openChecked(t, dir, nil)
		if got := docCount(t, db); got != len(docs) {
			t.Fatalf("kill %d: %d documents, want %d", k, got, len(docs))
		}
		db.Close()
		for _, s := range []string{".rebuilding", ".replaced", ".creating"} {
			if _, err := os.Stat(bm + s); !errors.Is(err, os.ErrNotExist) {
				t.Fatalf("kill %d: %s left behind", k, bm+s)
			}
		}
	}
	t.Logf("%d kills, %d before the open finished, %d left a half-built index beside the damaged one; all repaired", kills, interrupted, leftovers)
	if interrupted == 0 {
		t.Error("no kill interrupted a repair: the test tested nothing")
	}
}
