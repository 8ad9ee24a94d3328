package planner_test

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/medkb/medkb"
	"github.com/medkb/medkb/graph"
	"github.com/medkb/medkb/internal/base"
	"github.com/medkb/medkb/internal/shareddata"
)

// TestTCMLinking runs the questions of testdata/bench/tcm_queries.txt on
// the sample store (whose Chinese records are the top chunks that
// anchors are also read from) with the public TCM graph added, and
// measures the anchors and paths of each EXPAND:
//
//   - stray: a one-character anchor (no question names one alone);
//   - nested: an anchor the question names only inside a longer name of
//     any type (黄 in 黄芩片 would be; 黄芩 itself is no entity);
//   - from the top chunks: an anchor the question does not name;
//   - missed: an entity the question names, not anchored;
//   - precision: the share of paths whose every edge is in relation.jsonl
//     (read here with encoding/json alone) and that touch an entity the
//     question names.
func TestTCMLinking(t *testing.T) {
	path := shareddata.Path(t, "tcm", "relation.jsonl")
	if testing.Short() {
		t.Skip("ingests 13,498 triples")
	}
	raw, names := rawTCM(t, path)
	db := openSample(t)
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var triples []medkb.Triple
	err = graph.ReadTriples(f, path, func(tr base.Triple) error { triples = append(triples, medkb.Triple(tr)); return nil })
	if ie := (*graph.InputError)(nil); err != nil && (!errors.As(err, &ie) || ie.Bad != 2) {
		t.Fatal(err) // two herbs have an empty property in the source
	}
	if _, err := db.IngestGraph(context.Background(), nil, triples); err != nil {
		t.Fatal(err)
	}
	var queries, anchors, fromChunks, stray, nested, missed, paths, precise int
	for _, line := range readLines(t, filepath.Join("..", "testdata", "bench", "tcm_queries.txt")) {
		fields := strings.Split(line, "\t")
		q, metapath, gold := fields[0], fields[1], strings.Split(fields[2], "、")
		r, err := db.QueryParams(context.Background(), `RETRIEVE $q EXPAND metapath "`+metapath+`"`, medkb.Params{"q": q})
		if err != nil {
			t.Fatalf("%s: %v", q, err)
		}
		queries++
		for _, a := range r.Expansion.Anchors {
			anchors++
			switch {
			case utf8.RuneCountInString(a) == 1:
				stray++
				t.Logf("%s: one-character anchor %s", q, a)
			case !strings.Contains(q, a):
				fromChunks++
				t.Logf("%s: anchor %s from the top chunks", q, a)
			case onlyNested(q, a, names):
				nested++
				t.Logf("%s: nested anchor %s", q, a)
			}
		}
		for _, g := range gold {
			if !slices.Contains(r.Expansion.Anchors, g) {
				missed++
				t.Errorf("%s: %s not anchored (anchors %v)", q, g, r.Expansion.Anchors)
			}
		}
		for _, p := range r.Expansion.Paths {
			paths++
			ok := slices.ContainsFunc(p.Nodes, func(n string) bool { return slices.Contains(gold, n) })
			for i, rel := range p.Relations {
				head, tail := i, i+1
				if p.Reverse[i] {
					head, tail = tail, head
				}
				ok = ok && raw[[3]string{p.Nodes[head], rel, p.Nodes[tail]}]
			}
			if ok {
				precise++
			} else {
				t.Logf("%s: path off the question: %s", q, p.Text)
			}
		}
	}
	precision := float64(precise) / float64(max(paths, 1))
	t.Logf("%d questions: %d anchors (%d read from the top chunks), %d one-character, %d nested, %d named entities missed; %d paths, precision %.3f",
		queries, anchors, fromChunks, stray, nested, missed, paths, precision)
	if queries < 50 || stray > 0 || nested > 0 || precision < 0.95 {
		t.Errorf("want >= 50 questions, no one-character or nested anchors, precision >= 0.95")
	}
}

// onlyNested reports whether every occurrence of name a in q lies inside
// a longer entity name that q holds.
func onlyNested(q, a string, names map[string]bool) bool {
	for i := 0; ; {
		k := strings.Index(q[i:], a)
		if k < 0 {
			return true
		}
		start, end := i+k, i+k+len(a)
		inside := false
		for s := 0; s <= start && !inside; s++ {
			for e := end; e <= len(q); e++ {
				if e-s > len(a) && utf8.ValidString(q[s:e]) && names[q[s:e]] {
					inside = true
					break
				}
			}
		}
		if !inside {
			return false
		}
		i = end
	}
}

// rawTCM reads relation.jsonl with encoding/json alone: its edges as
// (head, relation, tail), the head being the field the table below names,
// and the set of every name.
func rawTCM(t *testing.T, path string) (map[[3]string]bool, map[string]bool) {
	heads := map[string]string{
		"HAS_HERB": "Formula", "HAS_PROPERTY": "Herb", "MERIDIAN": "Herb", "HAS_INGREDIENT": "Herb",
		"EXP2ING": "Experiment", "META2ING": "Meta", "META2FOR": "Meta", "PUB2ING": "PubMed",
		"DIS2SYN": "Disease", "HAS_SYNDROME": "Disease", "SYN2FOR": "Syndrome", "SYN2THE": "Syndrome",
	}
	edges, names := map[[3]string]bool{}, map[string]bool{}
	for _, line := range readLines(t, path) {
		var rec map[string]string
		if err := json.Unmarshal([]byte(line), &rec); err != nil {
			t.Fatal(err)
		}
		rel := rec["Relation"]
		head := heads[rel]
		if rel == "HAS_THERAPY" {
			head = "Formula"
			if _, ok := rec["Herb"]; ok {
				head = "Herb"
			}
		}
		for k, v := range rec {
			if k != "Relation" && k != head {
				edges[[3]string{rec[head], rel, v}] = true
			}
			if k != "Relation" {
				names[v] = true
			}
		}
	}
	return edges, names
}

// readLines returns the lines of a file that are neither blank nor
// comments.
func readLines(t *testing.T, path string) []string {
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var out []string
	sc := bufio.NewScanner(f)
	sc.Buffer(nil, 1<<20)
	for sc.Scan() {
		if l := sc.Text(); strings.TrimSpace(l) != "" && !strings.HasPrefix(l, "#") {
			out = append(out, l)
		}
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	return out
}
