package dedup

import (
	"cmp"
	"fmt"
	"hash/fnv"
	"regexp"
	"slices"
	"strings"
	"unicode"

	"github.com/viterin/vek/vek32"

	"github.com/medkb/medkb/internal/base"
	"github.com/medkb/medkb/internal/text"
)

// The thresholds (see the package doc).
const (
	MinCosine   = 0.95
	MinShingles = 0.8
	TieRatio    = 0.02
)

// Entry is one candidate, given in rank order (best first).
type Entry struct {
	Text string
	// Vec is the candidate's normalised vector, nil when it has none.
	Vec []float32
	// Group must be equal for two entries to be duplicates: the planner
	// puts the tier and the patient in it.
	Group string
	Score float64  // the rank's score; higher is better
	Day   base.Day // base.NoDay when unknown
}

// Match says that an entry duplicates the kept entry Kept, and by which
// test: Test is "cosine" or "shingles", Value what it measured.
type Match struct {
	Kept  int
	Test  string
	Value float64
}

// String is "cosine 0.97" or "shingles 0.85".
func (m Match) String() string { return fmt.Sprintf("%s %.2f", m.Test, m.Value) }

// entry is an Entry with what the tests compare, computed once.
type entry struct {
	*Entry
	values   string   // the numeric tokens, sorted and joined
	shingles []uint64 // sorted, distinct
}

// Find returns, for each entry, nil when it is kept or the Match that
// makes it a duplicate of a kept entry (see the package doc for the
// tests and for which copy is kept).
func Find(es []Entry) []*Match {
	prep := make([]entry, len(es))
	for i := range es {
		prep[i] = entry{Entry: &es[i], values: values(es[i].Text), shingles: shingles(es[i].Text)}
	}
	out := make([]*Match, len(es))
	var clusters []cluster
	for i := range prep {
		for ci := range clusters {
			c := &clusters[ci]
			m := duplicate(&prep[i], &prep[c.kept])
			if m == nil {
				continue
			}
			newer := prep[i].Day != base.NoDay && prep[i].Day > prep[c.kept].Day
			if newer && prep[i].Score >= c.best*(1-TieRatio) && !dupOfAnother(prep, clusters, ci, i) {
				// The newer close copy takes the older one's place,
				// and the older one's copies point to it.
				for j, o := range out {
					if o != nil && o.Kept == c.kept {
						out[j] = &Match{Kept: i, Test: o.Test, Value: o.Value}
					}
				}
				out[c.kept] = &Match{Kept: i, Test: m.Test, Value: m.Value}
				c.kept = i
			} else {
				m.Kept = c.kept
				out[i] = m
			}
			c.best = max(c.best, prep[i].Score)
			break
		}
		if out[i] == nil && !slices.ContainsFunc(clusters, func(c cluster) bool { return c.kept == i }) {
			clusters = append(clusters, cluster{kept: i, best: prep[i].Score})
		}
	}
	return out
}

// cluster is the copies of one piece of evidence found so far.
type cluster struct {
	kept int
	best float64 // the best score of its copies
}

// dupOfAnother reports whether entry i duplicates the kept entry of a
// cluster other than skip: such an entry may not become a kept one, or
// two kept entries would be duplicates.
func dupOfAnother(prep []entry, clusters []cluster, skip, i int) bool {
	for ci, c := range clusters {
		if ci != skip && duplicate(&prep[i], &prep[c.kept]) != nil {
			return true
		}
	}
	return false
}

// duplicate reports whether a and b are near-duplicates, and by which
// test; Kept is left for the caller.
func duplicate(a, b *entry) *Match {
	if a.Group != b.Group || a.values != b.values {
		return nil
	}
	if len(a.Vec) > 0 && len(a.Vec) == len(b.Vec) {
		if cos := float64(vek32.Dot(a.Vec, b.Vec)); cos >= MinCosine {
			return &Match{Test: "cosine", Value: cos}
		}
	}
	if j := jaccard(a.shingles, b.shingles); j >= MinShingles {
		return &Match{Test: "shingles", Value: j}
	}
	return nil
}

// numeric matches a value: a number and the unit written after it, if
// any ("2.3 ng/mL", "38.5℃", "45%", "88次/分", "120/80 mmHg" as two).
var numeric = regexp.MustCompile(`\d+(?:\.\d+)?(?:\s*(?:%|℃|°[cf]?|\p{Han}/\p{Han}|(?:[a-zµμ]+(?:/[a-z0-9.^]+)+|mmhg|bpm|mg|kg|g|ml|l|cm|mm|iu|u)\b))?`)

// values is the text's numeric tokens, sorted and joined: equal for two
// texts that state the same values.
func values(s string) string {
	s = strings.ToLower(strings.Map(text.WidthFold, s))
	vs := numeric.FindAllString(s, -1)
	for i, v := range vs {
		vs[i] = strings.Join(strings.Fields(v), "")
	}
	slices.Sort(vs)
	return strings.Join(vs, " ")
}

// shingles is the set of the text's word 3-shingles, hashed; a text of
// fewer than three words is one shingle.
func shingles(s string) []uint64 {
	var words []string
	var w strings.Builder
	flush := func() {
		if w.Len() > 0 {
			words = append(words, w.String())
			w.Reset()
		}
	}
	for _, r := range strings.ToLower(strings.Map(text.WidthFold, s)) {
		switch {
		case text.IsCJK(r):
			flush()
			words = append(words, string(r))
		case unicode.IsLetter(r) || unicode.IsDigit(r) || r == '.' && w.Len() > 0:
			w.WriteRune(r)
		default:
			flush()
		}
	}
	flush()
	n := max(len(words)-2, min(len(words), 1))
	out := make([]uint64, 0, n)
	for i := range n {
		h := fnv.New64a()
		h.Write([]byte(strings.Join(words[i:min(i+3, len(words))], "\x00")))
		out = append(out, h.Sum64())
	}
	slices.Sort(out)
	return slices.Compact(out)
}

// jaccard is |a ∩ b| / |a ∪ b| of two sorted sets; 0 when both are empty.
func jaccard(a, b []uint64) float64 {
	inter := 0
	for i, j := 0, 0; i < len(a) && j < len(b); {
		switch cmp.Compare(a[i], b[j]) {
		case 0:
			inter++
			i++
			j++
		case -1:
			i++
		default:
			j++
		}
	}
	union := len(a) + len(b) - inter
	if union == 0 {
		return 0
	}
	return float64(inter) / float64(union)
}
