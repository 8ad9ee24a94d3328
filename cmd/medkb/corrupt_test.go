package main

import (
	"bytes"
	"context"
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/medkb/medkb/internal/shareddata"
)

// The corruption tests damage copies of a store and run the CLI on each
// in a child process (this test binary, re-executed to run TestCLIChild),
// so that a Go panic, a fatal signal (SIGSEGV, SIGBUS from the mapping of
// a damaged file) or a hang is seen as such instead of ending the test run.

const (
	envCLIArgs = "MEDKB_CLI_ARGS" // the child's command line, separated by argSep
	argSep     = "\x1f"           // ASCII unit separator: an environment value holds no NUL
)

// TestCLIChild runs one command line for the corruption tests; it does
// nothing in a normal test run.
func TestCLIChild(t *testing.T) {
	args := os.Getenv(envCLIArgs)
	if args == "" {
		t.Skip("helper process of the corruption tests")
	}
	os.Exit(run(strings.Split(args, argSep), strings.NewReader(""), os.Stdout, os.Stderr))
}

// outcome is what one child did: its exit status and output, and why it
// counts as a crash ("" when it exited 0 or 1 by itself).
type outcome struct {
	code        int
	out, errOut string
	crash       string
}

// fatalOutput recognises a Go panic or runtime crash in a child's stderr.
var fatalOutput = regexp.MustCompile(`(?m)^(panic: |fatal error: |unexpected fault address|\[signal |goroutine \d+ \[)`)

func runChild(args ...string) outcome {
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, os.Args[0], "-test.run=^TestCLIChild$", "-test.count=1")
	cmd.Env = append(os.Environ(), envCLIArgs+"="+strings.Join(args, argSep))
	var out, errOut bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errOut
	if err := cmd.Run(); cmd.ProcessState == nil {
		return outcome{code: -1, crash: fmt.Sprintf("did not start: %v", err)}
	}
	o := outcome{code: cmd.ProcessState.ExitCode(), out: out.String(), errOut: errOut.String()}
	ws, _ := cmd.ProcessState.Sys().(syscall.WaitStatus)
	switch {
	case ctx.Err() != nil:
		o.crash = "hung: killed after a minute"
	case ws.Signaled():
		o.crash = "killed by " + ws.Signal().String()
	case fatalOutput.MatchString(o.errOut):
		o.crash = fatalOutput.FindString(o.errOut) + "..."
	case o.code != 0 && o.code != 1:
		o.crash = fmt.Sprintf("exit status %d", o.code)
	}
	return o
}

// boltGeometry reads the page size and the high-water mark (pages in use
// or free) of a bbolt file from its newer meta page: the part of the file
// that damage can reach. It knows the format only for that.
func boltGeometry(t testing.TB, data []byte) (pageSize, used int) {
	t.Helper()
	meta := func(off int) (ps, pgid, txid uint64) {
		m := data[off+16:]
		return uint64(binary.NativeEndian.Uint32(m[8:])), binary.NativeEndian.Uint64(m[40:]), binary.NativeEndian.Uint64(m[48:])
	}
	ps, pgid, txid := meta(0)
	if _, pgid1, txid1 := meta(int(ps)); txid1 > txid {
		pgid = pgid1
	}
	return int(ps), int(pgid * ps)
}

// damageKinds are the ways a copy is damaged; the test asserts what check
// must find for those whose damage always matters.
var damageKinds = []string{"zero page", "zero meta page", "flip bytes", "flip document text", "truncate", "flip page header"}

// damaged is one damaged copy of a store.
type damaged struct {
	dir     string // the copy's store directory
	kind    string
	detail  string
	docID   string // "flip document text": the document whose text was hit
	mustErr string // what check's output must contain ("" when the damage may be harmless)
}

// corruptionRig holds a store to damage and what the damage needs.
type corruptionRig struct {
	base     string // the store directory
	db       []byte // its gen-000001/medkb.db
	pageSize int
	used     int
	texts    map[string]string // document id -> text, to find in the file
	ids      []string          // the documents' ids, in order
	ingest   string            // a small file to ingest into a damaged copy
}

func newRig(t testing.TB, base string) *corruptionRig {
	t.Helper()
	db, err := os.ReadFile(filepath.Join(base, "gen-000001", "medkb.db"))
	if err != nil {
		t.Fatal(err)
	}
	r := &corruptionRig{base: base, db: db, texts: map[string]string{}, ingest: "../../testdata/corpus/bad.jsonl"}
	r.pageSize, r.used = boltGeometry(t, db)
	code, out, errOut := cli(t, "", "export", "--db", base)
	if code != 0 {
		t.Fatal(errOut)
	}
	for _, line := range strings.Split(strings.TrimSpace(out), "\n") {
		var d struct{ ID, Text string }
		if err := json.Unmarshal([]byte(line), &d); err != nil {
			t.Fatal(err)
		}
		r.texts[d.ID] = d.Text
		r.ids = append(r.ids, d.ID)
	}
	return r
}

// plainWord finds a run of 24 plain characters, which JSON stores as they
// are, in a document's text.
var plainWord = regexp.MustCompile(`[A-Za-z ]{24}`)

// damage copies the store into dir and damages the copy's medkb.db.
func (r *corruptionRig) damage(t testing.TB, rng *rand.Rand, dir, kind string) damaged {
	t.Helper()
	if err := copyStore(r.base, dir); err != nil {
		t.Fatal(err)
	}
	data := bytes.Clone(r.db[:r.used])
	d := damaged{dir: dir, kind: kind}
	ps, pages := r.pageSize, r.used/r.pageSize
	switch kind {
	case "zero page":
		p := 2 + rng.IntN(pages-2)
		clear(data[p*ps : (p+1)*ps])
		d.detail = fmt.Sprintf("page %d", p)
	case "zero meta page":
		p := rng.IntN(2)
		clear(data[p*ps : (p+1)*ps])
		d.detail, d.mustErr = fmt.Sprintf("page %d", p), "meta page invalid"
	case "flip bytes":
		n := 1 + rng.IntN(8)
		for range n {
			data[2*ps+rng.IntN(len(data)-2*ps)] ^= byte(1 + rng.IntN(255))
		}
		d.detail = fmt.Sprintf("%d bytes", n)
	case "flip document text":
		// Every copy of the run in the file (bbolt leaves old ones in free
		// pages), so that the live record is surely hit.
		start := rng.IntN(len(r.ids))
		for k := range r.ids {
			id := r.ids[(start+k)%len(r.ids)]
			w := plainWord.FindString(r.texts[id])
			if w == "" || bytes.Count(data, []byte(w)) == 0 {
				continue
			}
			for off := 0; ; {
				i := bytes.Index(data[off:], []byte(w))
				if i < 0 {
					break
				}
				data[off+i+rng.IntN(len(w))] ^= 0x04
				off += i + len(w)
			}
			d.docID, d.detail, d.mustErr = id, fmt.Sprintf("%q of %s", w, id), "checksum mismatch"
			break
		}
		if d.docID == "" {
			t.Fatal("no document text found in the file")
		}
	case "truncate":
		n := rng.IntN(r.used)
		if rng.IntN(2) == 0 { // whole pages: the meta then names pages past the end
			n -= n % ps
		}
		data = data[:n]
		d.detail, d.mustErr = fmt.Sprintf("to %d of %d bytes", n, r.used), "truncated"
		if n == 0 {
			d.mustErr = "the file is empty"
		}
	case "flip page header":
		p := 2 + rng.IntN(pages-2)
		data[p*ps+rng.IntN(16)] ^= byte(1 + rng.IntN(255))
		d.detail = fmt.Sprintf("page %d", p)
	}
	path := filepath.Join(dir, "gen-000001", "medkb.db")
	if err := os.WriteFile(path, data, 0o644); err != nil {
		t.Fatal(err)
	}
	if kind != "truncate" { // the rest of the file, as bbolt grew it (a hole)
		if err := os.Truncate(path, int64(len(r.db))); err != nil {
			t.Fatal(err)
		}
	}
	return d
}

// copyStore copies the store directory src to dst (medkb.db is written
// by damage).
func copyStore(src, dst string) error {
	return filepath.WalkDir(src, func(path string, e fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(src, path)
		to := filepath.Join(dst, rel)
		if e.IsDir() {
			return os.MkdirAll(to, 0o755)
		}
		if e.Name() == "medkb.db" {
			return nil
		}
		in, err := os.Open(path)
		if err != nil {
			return err
		}
		defer in.Close()
		out, err := os.Create(to)
		if err != nil {
			return err
		}
		_, err = io.Copy(out, in)
		return errors.Join(err, out.Close())
	})
}

// faultCounts sums a fault-injection run.
type faultCounts struct {
	copies, runs, ok, errors, crashes int
	checkFailed                       int // copies check reported
	crashLog                          []string
}

// run damages n copies, each with the next kind, and runs check and one
// other command on each. It fails tb for a crash, for an error about a
// damaged store that names no file, and when check misses damage that
// always matters (mustErr), and when a rebuild succeeds from a copy that
// check found damaged (it would copy the damage and prune the original).
func (r *corruptionRig) run(t testing.TB, rng *rand.Rand, n int) faultCounts {
	t.Helper()
	var c faultCounts
	root := t.TempDir()
	for i := range n {
		kind := damageKinds[i%len(damageKinds)]
		d := r.damage(t, rng, filepath.Join(root, strconv.Itoa(i), "kb"), kind)
		db := []string{"--db", d.dir}
		others := [][]string{{"stats"}, {"query", `RETRIEVE "chest pain" PACK budget 256`}, {"export"},
			{"show", r.ids[rng.IntN(len(r.ids))]}, {"ingest", r.ingest, "--skip-bad"}, {"rebuild", "--grace", "1ms"},
			{"backup", filepath.Join(root, strconv.Itoa(i), "backup")}}
		other := others[rng.IntN(len(others))]
		if d.docID != "" { // the damaged document must not show
			other = []string{"show", d.docID}
		}
		c.copies++
		checkFailed, pageDamage := false, false
		for j, args := range [][]string{{"check"}, other} {
			o := runChild(append(append([]string{}, args...), db...)...)
			c.runs++
			all := o.out + o.errOut
			switch {
			case o.crash != "":
				c.crashes++
				c.crashLog = append(c.crashLog, fmt.Sprintf("%s (%s) %v: %s\n%s", d.kind, d.detail, args, o.crash, all))
				t.Errorf("copy %d, %s (%s), %v: %s\n%.2000s", i, d.kind, d.detail, args, o.crash, all)
				continue
			case o.code == 0:
				c.ok++
			default:
				c.errors++
				if strings.Contains(all, "store is corrupt") && !strings.Contains(all, "medkb.db") {
					t.Errorf("copy %d, %s (%s), %v: the error names no file:\n%s", i, d.kind, d.detail, args, all)
				}
			}
			if j == 0 && o.code != 0 {
				c.checkFailed++
				checkFailed = true
				pageDamage = strings.Contains(all, ": page ") // a page's structure, not its content
			}
			if j == 1 && checkFailed && args[0] == "rebuild" && o.code == 0 {
				t.Errorf("copy %d, %s (%s): rebuild succeeded from a store that fails its check:\n%s", i, d.kind, d.detail, all)
			}
			// bbolt falls back to the other meta page's older transaction:
			// a backup would copy it as if whole, and a write would make
			// the loss of the last one permanent.
			if j == 1 && d.kind == "zero meta page" && (args[0] == "backup" || args[0] == "ingest" || args[0] == "rebuild") && o.code == 0 {
				t.Errorf("copy %d, %s (%s): %s succeeded on the older transaction the other meta page names:\n%s", i, d.kind, d.detail, args[0], all)
			}
			// A write trusts the pages it rewrites: on a page check found
			// damaged, it must refuse rather than make it worse.
			if j == 1 && pageDamage && (args[0] == "ingest" || args[0] == "rebuild") && o.code == 0 {
				t.Errorf("copy %d, %s (%s): %s wrote to a store with a damaged page:\n%s", i, d.kind, d.detail, args[0], all)
			}
			first, _, _ := strings.Cut(strings.TrimSpace(all), "\n")
			t.Logf("copy %d, %s (%s): %s: %.300s", i, d.kind, d.detail, args[0], first)
			if j == 0 && d.mustErr != "" && (o.code != 1 || !strings.Contains(all, d.mustErr)) {
				t.Errorf("copy %d, %s (%s): check exits %d without %q:\n%s", i, d.kind, d.detail, o.code, d.mustErr, all)
			}
			if j == 1 && d.docID != "" && (o.code != 1 || !strings.Contains(all, "checksum mismatch")) {
				t.Errorf("copy %d, %s (%s): show %s exits %d without a checksum error:\n%s", i, d.kind, d.detail, d.docID, o.code, all)
			}
		}
		os.RemoveAll(filepath.Join(root, strconv.Itoa(i)))
	}
	return c
}

func (c faultCounts) String() string {
	return fmt.Sprintf("%d damaged copies, %d runs: %d ok, %d errors, %d panics, fatal signals or hangs; check failed on %d copies",
		c.copies, c.runs, c.ok, c.errors, c.crashes, c.checkFailed)
}

func faultSeed(t testing.TB) *rand.Rand {
	seed := uint64(time.Now().UnixNano())
	if s := os.Getenv("MEDKB_FAULT_SEED"); s != "" {
		seed, _ = strconv.ParseUint(s, 10, 64)
	}
	t.Logf("MEDKB_FAULT_SEED=%d", seed)
	return rand.New(rand.NewPCG(seed, seed))
}

// TestCorruptStores damages 60 copies of the sample store (zeroed pages
// and meta pages, flipped bytes in pages, page headers and document text,
// truncation) and runs check and one other command on each: no command
// may panic, die of a signal or hang, and check must report damage that
// always matters.
func TestCorruptStores(t *testing.T) {
	if testing.Short() {
		t.Skip("runs 120 child processes")
	}
	db := sampleStore(t)
	r := newRig(t, db[1])
	c := r.run(t, faultSeed(t), 60)
	t.Log(c)
}

// TestFaultInjection is the larger loop (MEDKB_FAULTS=N copies) on a store
// of NFCorpus's 3,162 test documents, when the shared data is present.
func TestFaultInjection(t *testing.T) {
	n, _ := strconv.Atoi(os.Getenv("MEDKB_FAULTS"))
	if n <= 0 {
		t.Skip("set MEDKB_FAULTS=N to damage N copies of an NFCorpus store")
	}
	docs := shareddata.Path(t, "nfcorpus", "test.docs")
	base := filepath.Join(t.TempDir(), "kb")
	start := time.Now()
	if code, out, errOut := cli(t, "", "ingest", "--db", base, docs); code != 0 {
		t.Fatalf("ingest: %s%s", out, errOut)
	}
	r := newRig(t, base)
	t.Logf("store of %d documents, %d bytes of pages, built in %s", len(r.texts), r.used, time.Since(start).Round(time.Millisecond))
	c := r.run(t, faultSeed(t), n)
	t.Logf("%s in %s", c, time.Since(start).Round(time.Second))
	fmt.Println("fault injection:", c)
}
