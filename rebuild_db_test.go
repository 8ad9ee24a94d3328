package medkb

import (
	"context"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"testing"
	"time"

	"github.com/medkb/medkb/store"
)

// A service that holds the store read-write rebuilds through its DB:
// its queries go on meanwhile, it moves to the new generation, and its
// next ingest lands there and survives a reopen. The result is the one
// the package-level Rebuild gives on a copy.
func TestDBRebuildWhileQuerying(t *testing.T) {
	dir := sampleDir(t)
	cp := filepath.Join(t.TempDir(), "kb")
	if err := os.CopyFS(cp, os.DirFS(dir)); err != nil {
		t.Fatal(err)
	}
	db := openChecked(t, dir, nil)
	defer db.Close()
	want := answers(t, db)

	stop := queryWhile(t, db)
	res, err := db.Rebuild(context.Background(), fastRebuild)
	stop()
	if err != nil {
		t.Fatal(err)
	}
	if res.From != store.GenName(1) || res.To != store.GenName(2) || !slices.Equal(res.Removed, []string{res.From}) || len(res.InUse) != 0 {
		t.Fatalf("rebuild result %+v", res)
	}
	if s, err := db.Stats(); err != nil || s.Generation != res.To {
		t.Fatalf("db after its rebuild: %v %+v", err, s)
	}
	if err := db.verify(); err != nil {
		t.Fatal(err)
	}
	if got := answers(t, db); !slices.EqualFunc(got, want, slices.Equal) {
		t.Fatalf("answers changed:\n got %v\nwant %v", got, want)
	}

	other, err := Rebuild(context.Background(), cp, fastRebuild)
	if err != nil {
		t.Fatal(err)
	}
	other.Removed, res.Removed = nil, nil
	if !reflect.DeepEqual(other, res) {
		t.Fatalf("db.Rebuild gave %+v, the package-level Rebuild on a copy %+v", res, other)
	}

	if _, err := db.Ingest(context.Background(), []Doc{crashDoc(1, 0)}); err != nil {
		t.Fatal(err)
	}
	if err := db.Close(); err != nil {
		t.Fatal(err)
	}
	db = openChecked(t, dir, &Options{ReadOnly: true})
	if _, err := db.Show([]string{crashID(1)}); err != nil {
		t.Fatalf("the ingest after the rebuild: %v", err)
	}
	if s, _ := db.Stats(); s.Generation != res.To {
		t.Fatalf("reopened at %s, want %s", s.Generation, res.To)
	}
}

// A read-only DB rebuilds through the package-level Rebuild and follows.
func TestDBRebuildReadOnly(t *testing.T) {
	dir := sampleDir(t)
	db := openChecked(t, dir, &Options{ReadOnly: true})
	defer db.Close()
	res, err := db.Rebuild(context.Background(), fastRebuild)
	if err != nil {
		t.Fatal(err)
	}
	if s, err := db.Stats(); err != nil || s.Generation != res.To {
		t.Fatalf("read-only db after its rebuild: %v %+v", err, s)
	}
	// It had the old generation open during the prune.
	if !slices.Equal(res.InUse, []string{res.From}) {
		t.Fatalf("rebuild result %+v", res)
	}
}

// The package-level Rebuild, Backup and Check, called in a process that
// holds the store open read-write, go through that DB instead of waiting
// for its writer lock (the README's cron call from inside the service);
// spelt another way (relative, through a symbolic link) the store is the
// same. Once the DB is closed they open the store themselves again.
func TestPackageCallsBesideOpenWriter(t *testing.T) {
	dir := sampleDir(t)
	db := openChecked(t, dir, nil)
	defer db.Close()
	link := filepath.Join(t.TempDir(), "link")
	if err := os.Symlink(dir, link); err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	res, err := Rebuild(ctx, link, &RebuildOptions{LockTimeout: 50 * time.Millisecond, Grace: time.Millisecond})
	if err != nil {
		t.Fatalf("package Rebuild beside an open writer: %v", err)
	}
	if s, err := db.Stats(); err != nil || s.Generation != res.To {
		t.Fatalf("the open DB did not move to %s: %v %+v", res.To, err, s)
	}
	dest := filepath.Join(t.TempDir(), "copy")
	if _, err := Backup(ctx, dir+string(filepath.Separator), dest, &Options{LockTimeout: 50 * time.Millisecond}); err != nil {
		t.Fatalf("package Backup beside an open writer: %v", err)
	}
	rep, err := Check(dir, &Options{LockTimeout: 50 * time.Millisecond})
	if err != nil || len(rep.Problems) > 0 || rep.Stats == nil || rep.Stats.Generation != res.To {
		t.Fatalf("package Check beside an open writer: %v %+v", err, rep)
	}
	if err := db.Close(); err != nil {
		t.Fatal(err)
	}
	if writerIn(dir) != nil {
		t.Fatal("a closed DB is still registered as the store's writer")
	}
	if rep, err := Check(dir, nil); err != nil || len(rep.Problems) > 0 {
		t.Fatalf("Check after Close: %v %+v", err, rep)
	}
}
