package ireval

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"
)

// Qrels maps query id to document id to relevance grade.
type Qrels map[string]map[string]int

// ErrSyntax is returned (wrapped, with a line number) for a malformed
// qrels or id-text line.
var ErrSyntax = errors.New("medkb: malformed line")

// ReadQrels reads TREC qrels: one judgement per line, "qid iter docid
// grade", fields separated by white space; iter is ignored. Blank lines are
// skipped. A later judgement of the same pair replaces an earlier one.
func ReadQrels(r io.Reader) (Qrels, error) {
	q := Qrels{}
	sc := bufio.NewScanner(r)
	for n := 1; sc.Scan(); n++ {
		f := strings.Fields(sc.Text())
		if len(f) == 0 {
			continue
		}
		if len(f) != 4 {
			return nil, fmt.Errorf("qrels line %d: %w: want 4 fields, got %d", n, ErrSyntax, len(f))
		}
		grade, err := strconv.Atoi(f[3])
		if err != nil {
			return nil, fmt.Errorf("qrels line %d: %w: grade %q", n, ErrSyntax, f[3])
		}
		if q[f[0]] == nil {
			q[f[0]] = map[string]int{}
		}
		q[f[0]][f[2]] = grade
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("qrels: %w", err)
	}
	return q, nil
}

// ReadPairs reads "ID<TAB>text" lines (the NFCorpus docs and queries
// format) and calls fn for each; blank lines are skipped. Lines may be long:
// up to 16 MiB.
func ReadPairs(r io.Reader, fn func(id, text string) error) error {
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 0, 64<<10), 16<<20)
	for n := 1; sc.Scan(); n++ {
		line := sc.Text()
		if strings.TrimSpace(line) == "" {
			continue
		}
		id, text, ok := strings.Cut(line, "\t")
		if !ok || id == "" {
			return fmt.Errorf("line %d: %w: want ID<TAB>text", n, ErrSyntax)
		}
		if err := fn(id, text); err != nil {
			return err
		}
	}
	return sc.Err()
}
