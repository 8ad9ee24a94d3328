package store

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"

	"github.com/medkb/medkb/internal/fsync"
)

const (
	currentFile = "CURRENT"
	genPrefix   = "gen-"
	dbFile      = "medkb.db"
)

// GenName formats generation number n as a directory name.
func GenName(n int) string { return fmt.Sprintf("%s%06d", genPrefix, n) }

func genNumber(name string) (int, bool) {
	if !strings.HasPrefix(name, genPrefix) {
		return 0, false
	}
	n, err := strconv.Atoi(name[len(genPrefix):])
	return n, err == nil && n > 0
}

// Current returns the generation CURRENT names in dir: ErrNotStore when
// there is no CURRENT file, ErrCorrupt when it names no generation.
func Current(dir string) (string, error) {
	path := filepath.Join(dir, currentFile)
	b, err := os.ReadFile(path)
	if errors.Is(err, fs.ErrNotExist) {
		return "", fmt.Errorf("%w: %s has no CURRENT file", ErrNotStore, dir)
	}
	if err != nil {
		return "", fmt.Errorf("medkb: %w", err)
	}
	name := strings.TrimSpace(string(b))
	if name == "" {
		return "", corruptFile(path, "empty; it names the live generation%s", dataHint(dir, "", noData))
	}
	if _, ok := genNumber(name); !ok {
		return "", corruptFile(path, "names %.40q, not a generation (gen-NNNNNN)%s", name, dataHint(dir, "", noData))
	}
	return name, nil
}

// noData is dataHint's text when no generation has a bbolt file.
const noData = "; no generation has a medkb.db: restore a backup"

// dataHint tells how to repair a store whose CURRENT, or the generation
// it names (except), is wrong: it names the other generations that have a
// bbolt file; none is said when there is none.
func dataHint(dir, except, none string) string {
	names, _ := Generations(dir)
	var have []string
	for _, name := range names {
		if st, err := os.Stat(filepath.Join(dir, name, dbFile)); name != except && err == nil && st.Size() > 0 {
			have = append(have, name)
		}
	}
	if len(have) == 0 {
		return none
	}
	return fmt.Sprintf("; %s %s a medkb.db: point CURRENT at the right one (echo %s > %s), then run medkb check",
		strings.Join(have, ", "), map[bool]string{true: "has", false: "have"}[len(have) == 1], have[len(have)-1], filepath.Join(dir, currentFile))
}

// Generations lists the generation directories in dir, oldest first.
func Generations(dir string) ([]string, error) {
	ents, err := os.ReadDir(dir)
	if err != nil {
		return nil, err
	}
	var names []string
	for _, e := range ents {
		if _, ok := genNumber(e.Name()); ok && e.IsDir() {
			names = append(names, e.Name())
		}
	}
	sort.Slice(names, func(i, j int) bool {
		a, _ := genNumber(names[i])
		b, _ := genNumber(names[j])
		return a < b
	})
	return names, nil
}

// NextGeneration returns the name of a generation newer than any in dir.
func NextGeneration(dir string) (string, error) {
	names, err := Generations(dir)
	if err != nil {
		return "", err
	}
	if len(names) == 0 {
		return GenName(1), nil
	}
	n, _ := genNumber(names[len(names)-1])
	return GenName(n + 1), nil
}

// SetCurrent points CURRENT at gen atomically: write a temporary file, sync
// it, rename it over CURRENT and sync the directory.
func SetCurrent(dir, gen string) error {
	tmp := filepath.Join(dir, currentFile+".tmp")
	f, err := os.OpenFile(tmp, os.O_WRONLY|os.O_CREATE|os.O_TRUNC, 0o644)
	if err != nil {
		return err
	}
	if _, err := f.WriteString(gen + "\n"); err != nil {
		f.Close()
		return err
	}
	if err := f.Sync(); err != nil {
		f.Close()
		return err
	}
	if err := f.Close(); err != nil {
		return err
	}
	if err := os.Rename(tmp, filepath.Join(dir, currentFile)); err != nil {
		return err
	}
	return fsync.Path(dir)
}

// isEmptyDir reports whether dir is missing or has no entries but the
// lock files and the readers' records.
func isEmptyDir(dir string) (bool, error) {
	ents, err := os.ReadDir(dir)
	if errors.Is(err, fs.ErrNotExist) {
		return true, nil
	}
	if err != nil {
		return false, err
	}
	for _, e := range ents {
		if n := e.Name(); n != lockFile && n != intentFile && n != readersDir {
			return false, nil
		}
	}
	return true, nil
}
