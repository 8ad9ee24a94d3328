package dedup

import (
	"fmt"
	"slices"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/viterin/vek/vek32"

	"github.com/medkb/medkb/internal/base"
	"github.com/medkb/medkb/internal/clinical"
	"github.com/medkb/medkb/internal/text"
)

// The thresholds (see the package doc).
const (
	MinCosine   = 0.95
	MinShingles = 0.8
	TieRatio    = 0.02
	// MaxGrowth bounds the "contained" test: the longer text may be at
	// most this many times the shorter's length in characters.
	MaxGrowth = 2.0
)

// Entry is one candidate, given in rank order (best first).
type Entry struct {
	Text string
	// Vec is the candidate's normalised vector, nil when it has none.
	Vec []float32
	// Group must be equal for two entries to be duplicates: the planner
	// puts the tier, the patient and the study design in it.
	Group string
	Score float64  // the rank's score; higher is better
	Day   base.Day // base.NoDay when unknown
	// Path marks a knowledge-graph path: the containment test does not
	// apply, since a path that extends another is another chain.
	Path bool
}

// Match says that an entry duplicates the kept entry Kept, and by which
// test: Test is "cosine", "shingles" or "contained", Value what it
// measured (for "contained", the larger text's size over the smaller's).
type Match struct {
	Kept  int
	Test  string
	Value float64
}

// String is "cosine 0.97" or "shingles 0.85".
func (m Match) String() string { return fmt.Sprintf("%s %.2f", m.Test, m.Value) }

// entry is an Entry with what the tests compare, each computed on first
// use: most pairs differ in their group or values, and shingles are
// needed only when the cosine test fails.
type entry struct {
	*Entry
	values    string // the numeric tokens, sorted and joined
	shingles  shingleSet
	sentences []string // text.Sentences, for sameKeys
	has       uint8    // hasValues | hasShingles | hasSentences
}

const (
	hasValues = 1 << iota
	hasShingles
	hasSentences
)

func (e *entry) sentencesOf() []string {
	if e.has&hasSentences == 0 {
		e.sentences = text.Sentences(e.Text)
		e.has |= hasSentences
	}
	return e.sentences
}

// sameKeys reports whether a and b state the same clinical keys (values,
// findings, allergy statements: clinical.Keys) in the sentences one has
// and the other lacks; the sentences they share state the same by
// construction, so only the difference is read (Keys costs a regular
// expression per sentence).
func sameKeys(a, b *entry) bool {
	sa, sb := a.sentencesOf(), b.sentencesOf()
	keys := func(own, other []string) []string {
		var ks []string
		for _, s := range own {
			if !slices.Contains(other, s) {
				ks = append(ks, clinical.Keys(s)...)
			}
		}
		slices.Sort(ks)
		return ks
	}
	return slices.Equal(keys(sa, sb), keys(sb, sa))
}

// scratch is the buffers Find reuses from one entry to the next.
type scratch struct {
	runes []rune
	words []uint64
	slab  []uint64 // the shingle sets' keys and tables
}

// take returns n zeroed words of the slab.
func (sc *scratch) take(n int) []uint64 {
	if len(sc.slab)+n > cap(sc.slab) {
		sc.slab = make([]uint64, 0, max(n, 8192))
	}
	sc.slab = sc.slab[:len(sc.slab)+n]
	return sc.slab[len(sc.slab)-n:]
}

// valuesOf folds the text from its first digit on: values never looks
// back, and a digit (ASCII, or full-width U+FF10-FF19 as EF BC 90-99)
// always starts a rune, so that suffix has the same values.
func (e *entry) valuesOf(sc *scratch) string {
	if e.has&hasValues == 0 {
		if i := firstDigit(e.Text); i >= 0 {
			sc.runes = fold(e.Text[i:], sc.runes)
			e.values = values(sc.runes)
		}
		e.has |= hasValues
	}
	return e.values
}

// firstDigit is the byte offset of the first rune of s that folds to a
// digit, -1 when none does.
// One vectorised byte search per digit beats a loop over the bytes.
func firstDigit(s string) int {
	end := len(s)
	for c := byte('0'); c <= '9'; c++ {
		if i := strings.IndexByte(s[:end], c); i >= 0 {
			end = i
		}
	}
	for i := 0; ; i++ {
		j := strings.IndexByte(s[i:end], 0xEF)
		if j < 0 {
			break
		}
		if i += j; i+2 < len(s) && s[i+1] == 0xBC && 0x90 <= s[i+2] && s[i+2] <= 0x99 {
			return i
		}
	}
	if end == len(s) {
		return -1
	}
	return end
}

func (e *entry) shinglesOf(sc *scratch) *shingleSet {
	if e.has&hasShingles == 0 {
		sc.words = shingles(e.Text, sc.words, &e.shingles, sc)
		e.has |= hasShingles
	}
	return &e.shingles
}

// Find returns, for each entry, nil when it is kept or the Match that
// makes it a duplicate of a kept entry (see the package doc for the
// tests and for which copy is kept).
func Find(es []Entry) []*Match {
	prep := make([]entry, len(es))
	for i := range es {
		prep[i].Entry = &es[i]
	}
	var sc scratch
	out := make([]*Match, len(es))
	var clusters []cluster
	for i := range prep {
		for ci := range clusters {
			c := &clusters[ci]
			m := duplicate(&prep[i], &prep[c.kept], &sc)
			if m == nil {
				continue
			}
			newer := prep[i].Day != base.NoDay && prep[i].Day > prep[c.kept].Day
			if newer && prep[i].Score >= c.best*(1-TieRatio) && !dupOfAnother(prep, clusters, ci, i, &sc) {
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
func dupOfAnother(prep []entry, clusters []cluster, skip, i int, sc *scratch) bool {
	for ci, c := range clusters {
		if ci != skip && duplicate(&prep[i], &prep[c.kept], sc) != nil {
			return true
		}
	}
	return false
}

// duplicate reports whether a and b are near-duplicates, and by which
// test; Kept is left for the caller. The tests run cheapest first; a
// match also needs the same clinical keys (clinical.Keys), so that a copy
// with an allergy statement or a finding added is never dropped for the
// copy without it.
func duplicate(a, b *entry, sc *scratch) *Match {
	m := similar(a, b, sc)
	if m == nil || !sameKeys(a, b) {
		return nil
	}
	return m
}

// similar is duplicate's tests without the keys.
func similar(a, b *entry, sc *scratch) *Match {
	if a.Group != b.Group || a.valuesOf(sc) != b.valuesOf(sc) {
		return nil
	}
	if len(a.Vec) > 0 && len(a.Vec) == len(b.Vec) {
		if cos := float64(vek32.Dot(a.Vec, b.Vec)); cos >= MinCosine {
			return &Match{Test: "cosine", Value: cos}
		}
	}
	if growth, ok := contained(a, b); ok {
		return &Match{Test: "contained", Value: growth}
	}
	// |a ∩ b| <= the smaller set and |a ∪ b| >= the larger, so sets
	// whose sizes differ by more than MinShingles allows cannot match.
	na, nb := len(a.shinglesOf(sc).keys), len(b.shinglesOf(sc).keys)
	if float64(min(na, nb)) < MinShingles*float64(max(na, nb)) {
		return nil
	}
	if j := jaccard(&a.shingles, &b.shingles); j >= MinShingles {
		return &Match{Test: "shingles", Value: j}
	}
	return nil
}

// contained reports whether one text holds the other whole, at most
// MaxGrowth times its length, and what it adds before and after is
// inert, as a header or signature carried with copy-forward text. It returns the longer text's length over the
// shorter's. Graph paths are never contained (Entry.Path).
func contained(a, b *entry) (float64, bool) {
	if a.Path || b.Path {
		return 0, false
	}
	short, long := strings.TrimSpace(a.Text), strings.TrimSpace(b.Text)
	if len(short) > len(long) {
		short, long = long, short
	}
	ns, nl := utf8.RuneCountInString(short), utf8.RuneCountInString(long)
	if ns == 0 || ns == nl || float64(nl) > MaxGrowth*float64(ns) {
		return 0, false
	}
	at := strings.Index(long, short)
	if at < 0 {
		return 0, false
	}
	if !inert(long[:at]) || !inert(long[at+len(short):]) {
		return 0, false
	}
	return float64(nl) / float64(ns), true
}

// inert reports whether text a copy adds says nothing clinical: no key
// value, finding or allergy statement (clinical.Keys), and either no tier
// rule fires on it or it is administrative (clinical.Administrative: "复制
// 自既往病程记录" names a history, yet is a header).
func inert(added string) bool {
	added = strings.TrimSpace(added)
	if added == "" {
		return true
	}
	if len(clinical.Keys(added)) > 0 {
		return false
	}
	_, why := clinical.Classify("", base.TierNone, added)
	return why.Name == clinical.FallbackRule || clinical.Administrative(strings.Trim(added, "()（）[]【】:：,，;；. "))
}

// values is the text's numeric tokens, sorted and joined: equal for two
// texts that state the same values. A numeric token is a number and the
// unit written after it, if any ("2.3 ng/mL", "38.5℃", "45%", "88次/分";
// "120/80 mmHg" is two). A hand-written scanner: a regular expression
// made Dedup cost milliseconds a query. rs is the text folded by fold.
func values(rs []rune) string {
	var vs []string
	for i := 0; i < len(rs); {
		if !isDigit(rs[i]) {
			i++
			continue
		}
		j := i
		for j < len(rs) && isDigit(rs[j]) {
			j++
		}
		if j+1 < len(rs) && rs[j] == '.' && isDigit(rs[j+1]) {
			for j++; j < len(rs) && isDigit(rs[j]); j++ {
			}
		}
		v := string(rs[i:j])
		k := j
		for k < len(rs) && unicode.IsSpace(rs[k]) {
			k++
		}
		if n := unitAt(rs[k:]); n > 0 {
			v += string(rs[k : k+n])
			j = k + n
		}
		vs = append(vs, v)
		i = j
	}
	slices.Sort(vs)
	return strings.Join(vs, " ")
}

// units are the units without a slash that values recognises.
var units = map[string]bool{"mmhg": true, "bpm": true, "mg": true, "kg": true, "g": true, "ml": true,
	"l": true, "cm": true, "mm": true, "iu": true, "u": true}

// unitAt is the length of the unit rs starts with, 0 when none: "%",
// "℃", "°" (and c or f after it), a Han character over another ("次/分"),
// or a run of letters that has a slash ("ng/ml", "x10^9/l") or is one of
// units.
func unitAt(rs []rune) int {
	switch {
	case len(rs) == 0:
		return 0
	case rs[0] == '%' || rs[0] == '℃':
		return 1
	case rs[0] == '°':
		if len(rs) > 1 && (rs[1] == 'c' || rs[1] == 'f') {
			return 2
		}
		return 1
	case len(rs) >= 3 && unicode.Is(unicode.Han, rs[0]) && rs[1] == '/' && unicode.Is(unicode.Han, rs[2]):
		return 3
	}
	n, slash := 0, false
	for n < len(rs) && (rs[n] >= 'a' && rs[n] <= 'z' || rs[n] == 'µ' || rs[n] == 'μ' ||
		n > 0 && (rs[n] == '/' || rs[n] == '^' || isDigit(rs[n]) || rs[n] == '.' && n+1 < len(rs) && isDigit(rs[n+1]))) {
		slash = slash || rs[n] == '/'
		n++
	}
	if n < len(rs) && (unicode.IsLetter(rs[n]) && !unicode.Is(unicode.Han, rs[n])) {
		return 0 // part of a longer word
	}
	if slash || units[string(rs[:n])] {
		return n
	}
	return 0
}

func isDigit(r rune) bool { return r >= '0' && r <= '9' }

// fold is s with full-width forms folded to ASCII and in lower case, as
// runes, in buf (reused when large enough).
func fold(s string, buf []rune) []rune {
	buf = slices.Grow(buf[:0], len(s))[:len(s)] // never more runes than bytes
	n := 0
	for i := 0; i < len(s); n++ {
		var w int
		buf[n], w = foldAt(s, i)
		i += w
	}
	return buf[:n]
}

// foldAt is the rune of s at byte i, folded as by fold, and its width.
// ASCII takes a fast path; invalid UTF-8 is U+FFFD, one byte wide.
func foldAt(s string, i int) (rune, int) {
	if c := s[i]; c < utf8.RuneSelf {
		if 'A' <= c && c <= 'Z' {
			c += 'a' - 'A'
		}
		return rune(c), 1
	}
	r, w := utf8.DecodeRuneInString(s[i:])
	return unicode.ToLower(text.WidthFold(r)), w
}

// shingles is the set of the text's word 3-shingles, hashed; a text of
// fewer than three words is one shingle, read from the text folded as
// by fold. It fills set; words is a buffer to reuse, returned grown.
// Words are hashed as they are read (FNV-1a over their runes) and a
// shingle's hash mixes its words', so that no string is built.
func shingles(s string, words []uint64, set *shingleSet, sc *scratch) []uint64 {
	const offset, prime = 14695981039346656037, 1099511628211
	words = words[:0]
	h, in := uint64(offset), false
	flush := func() {
		if in {
			words = append(words, h)
			h, in = offset, false
		}
	}
	for i := 0; i < len(s); {
		if c := s[i]; c < utf8.RuneSelf { // ASCII, inline
			i++
			switch {
			case 'a' <= c && c <= 'z' || '0' <= c && c <= '9' || c == '.' && in:
				h, in = (h^uint64(c))*prime, true
			case 'A' <= c && c <= 'Z':
				h, in = (h^uint64(c+'a'-'A'))*prime, true
			default:
				flush()
			}
			continue
		}
		r, w := foldAt(s, i)
		i += w
		switch {
		case text.IsCJK(r):
			flush()
			words = append(words, (offset^uint64(r))*prime)
		case unicode.IsLetter(r) || unicode.IsDigit(r) || r == '.' && in:
			h, in = (h^uint64(r))*prime, true
		default:
			flush()
		}
	}
	flush()
	n := max(len(words)-2, min(len(words), 1))
	set.init(n, sc)
	for i := range n {
		x := uint64(offset)
		for _, w := range words[i:min(i+3, len(words))] {
			x = (x ^ w) * prime
		}
		set.add(x)
	}
	return words
}

// shingleSet is a set of shingle hashes: the distinct ones, and an
// open-addressing table of them (linear probing, 0 for an empty slot;
// the hash 0 itself is the flag zero), cheaper to fill than sorting.
type shingleSet struct {
	keys  []uint64
	table []uint64
	shift uint // 64 - log2(len(table))
	zero  bool
}

// init empties s for up to n keys, with a table at most half full, both
// taken from sc's slab.
func (s *shingleSet) init(n int, sc *scratch) {
	bits := uint(1)
	for 1<<bits < 2*n {
		bits++
	}
	s.keys, s.table, s.shift, s.zero = sc.take(n)[:0], sc.take(1<<bits), 64-bits, false
}

// slot is where h is, or the empty slot where it would go.
func (s *shingleSet) slot(h uint64) int {
	mask := len(s.table) - 1
	i := int((h * 0x9E3779B97F4A7C15) >> s.shift) // Fibonacci hashing: FNV's low bits are weak
	for s.table[i] != 0 && s.table[i] != h {
		i = (i + 1) & mask
	}
	return i
}

func (s *shingleSet) add(h uint64) {
	if h == 0 {
		if !s.zero {
			s.zero = true
			s.keys = append(s.keys, h)
		}
		return
	}
	if i := s.slot(h); s.table[i] == 0 {
		s.table[i] = h
		s.keys = append(s.keys, h)
	}
}

func (s *shingleSet) has(h uint64) bool {
	if h == 0 {
		return s.zero
	}
	return s.table[s.slot(h)] == h
}

// jaccard is |a ∩ b| / |a ∪ b|; 0 when both are empty.
func jaccard(a, b *shingleSet) float64 {
	if len(a.keys) > len(b.keys) {
		a, b = b, a
	}
	inter := 0
	for _, h := range a.keys {
		if b.has(h) {
			inter++
		}
	}
	union := len(a.keys) + len(b.keys) - inter
	if union == 0 {
		return 0
	}
	return float64(inter) / float64(union)
}
