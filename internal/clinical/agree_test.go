package clinical

import (
	"bufio"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"flag"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/medkb/medkb/internal/base"
	"github.com/medkb/medkb/internal/shareddata"
	"github.com/medkb/medkb/internal/text"
)

// writeAgree rewrites testdata/agree.golden from the code as it is. Do so
// only for a change that means to move what the package decides or
// extracts (a new rule, a new key pattern), never to make a speed-up pass.
var writeAgree = flag.Bool("agree.write", false, "rewrite testdata/agree.golden")

const agreeGolden = "testdata/agree.golden"

// agreeGroup is how many texts one line of agree.golden covers.
const agreeGroup = 32

// TestOutputsAgree holds everything the package decides or extracts
// (tier and reason, segment type, each rule's Matches, keys and their
// spans, reference ranges, state B as Compress and KeysStateB give it,
// Administrative, narrative, IsComplaint, genericHeading) to what the code
// gave before its speed-ups (agree.golden, written by the code of that
// time with -agree.write): over every text of testdata (English and
// Chinese), the sample corpus, the NFCorpus test documents and MedQA when
// the shared data is present (their groups are skipped when it is absent
// or its texts changed; -short skips them), and thousands of random texts pieced together
// from the rules' own literals, numbers, units and punctuation.
//
// A line of agree.golden is a source, a group number, and the digests of
// the group's texts and of their outputs; a failing group prints its
// texts' outputs.
func TestOutputsAgree(t *testing.T) {
	if testing.Short() {
		t.Skip("digests every output over thousands of texts (-short keeps 500 random ones); minutes under -race")
	}
	sources := agreeSources(t)
	if *writeAgree {
		var b strings.Builder
		b.WriteString("# Digests of what package clinical decided and extracted before its speed-ups (TestOutputsAgree).\n")
		b.WriteString("# source group texts-digest outputs-digest; go test -run TestOutputsAgree -agree.write rewrites it.\n")
		for _, src := range sources {
			for g, texts := range slices.Collect(slices.Chunk(src.texts, agreeGroup)) {
				fmt.Fprintf(&b, "%s %d %s %s\n", src.name, g, digest(texts...), digest(agreeOutputs(texts)...))
			}
		}
		if err := os.WriteFile(agreeGolden, []byte(b.String()), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	raw, err := os.ReadFile(agreeGolden)
	if err != nil {
		t.Fatal(err)
	}
	type line struct{ texts, outputs string }
	want := map[string]line{}
	for _, l := range strings.Split(string(raw), "\n") {
		f := strings.Fields(l)
		if len(f) == 4 && !strings.HasPrefix(l, "#") {
			want[f[0]+" "+f[1]] = line{f[2], f[3]}
		}
	}
	for _, src := range sources {
		checked, skipped := 0, 0
		for g, texts := range slices.Collect(slices.Chunk(src.texts, agreeGroup)) {
			w, ok := want[src.name+" "+strconv.Itoa(g)]
			if !ok || w.texts != digest(texts...) {
				if src.external {
					skipped++
					continue
				}
				t.Fatalf("%s group %d: the texts are not those of %s; rewrite it (-agree.write) only with the code it was written from", src.name, g, agreeGolden)
			}
			outs := agreeOutputs(texts)
			if digest(outs...) != w.outputs {
				t.Errorf("%s group %d: outputs differ from %s; the group's texts and outputs now:", src.name, g, agreeGolden)
				for i, o := range outs {
					t.Logf("%q\n\t%s", texts[i], o)
				}
			}
			checked += len(texts)
		}
		t.Logf("%s: %d texts agree, %d groups skipped", src.name, checked, skipped)
	}
}

// digest is a short hash of strs.
func digest(strs ...string) string {
	h := sha256.New()
	for _, s := range strs {
		fmt.Fprintf(h, "%d:%s", len(s), s)
	}
	return hex.EncodeToString(h.Sum(nil)[:12])
}

// agreeOutputs renders, for each text, all that TestOutputsAgree compares.
func agreeOutputs(texts []string) []string {
	count := func(s string) int { return len(s)/3 + strings.Count(s, " ") }
	out := make([]string, len(texts))
	for i, s := range texts {
		var b strings.Builder
		tier, why := Classify("", base.TierNone, s)
		fmt.Fprintf(&b, "classify=%s/%s segment=%q matches=", tier, why, SegmentType(s))
		for j := range TextRules {
			if TextRules[j].Matches(s) {
				b.WriteString(TextRules[j].Name + ",")
			}
		}
		spans, refs := keySpans(s)
		fmt.Fprintf(&b, " spans=%v refs=%v keys=%q", spans, refs, Keys(s))
		cb, n, total := Compress(s)
		fmt.Fprintf(&b, " compress=%q/%d/%d", cb, n, total)
		keys, sb, tokensB, nEntity := KeysStateB(s, true, count(s), count)
		fmt.Fprintf(&b, " keysstateb=%q/%q/%d/%d", keys, sb, tokensB, nEntity)
		keys, sb, tokensB, nEntity = KeysStateB(s, false, count(s), count)
		fmt.Fprintf(&b, "/%q/%q/%d/%d", keys, sb, tokensB, nEntity)
		fmt.Fprintf(&b, " admin=%t narrative=%t complaint=%t heading=%d",
			Administrative(s), narrative(s), IsComplaint(s), genericHeading(s))
		out[i] = b.String()
	}
	return out
}

type agreeSource struct {
	name     string
	texts    []string
	external bool // shared data, which may be absent or change
}

// agreeSources gathers the texts of TestOutputsAgree.
func agreeSources(t *testing.T) []agreeSource {
	var sources []agreeSource
	files, err := filepath.Glob(filepath.Join("testdata", "*"))
	if err != nil {
		t.Fatal(err)
	}
	for _, path := range files {
		if path == agreeGolden || strings.HasSuffix(path, ".golden") {
			continue
		}
		raw, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		sources = append(sources, agreeSource{name: filepath.Base(path), texts: pieces(string(raw))})
	}
	var corpus []string
	for _, d := range readCorpus(t) {
		corpus = append(corpus, d.Text)
		corpus = append(corpus, chunksOf(d.Text)...)
	}
	sources = append(sources, agreeSource{name: "corpus", texts: corpus})
	random := 5000
	if testing.Short() {
		random = 500
	}
	sources = append(sources, agreeSource{name: "random", texts: randomTexts(random)})

	if testing.Short() {
		return sources
	}
	dir := shareddata.Dir()
	if f, err := os.Open(filepath.Join(dir, "nfcorpus", "test.docs")); err == nil {
		var texts []string
		sc := bufio.NewScanner(f)
		sc.Buffer(make([]byte, 1<<20), 1<<20)
		for sc.Scan() {
			_, doc, _ := strings.Cut(sc.Text(), "\t")
			texts = append(texts, doc)
			texts = append(texts, chunksOf(doc)...)
		}
		f.Close()
		sources = append(sources, agreeSource{name: "nfcorpus", texts: texts, external: true})
	} else {
		t.Logf("nfcorpus absent: %v", err)
	}
	medqa, _ := filepath.Glob(filepath.Join(dir, "medqa", "*.jsonl"))
	for _, path := range medqa {
		f, err := os.Open(path)
		if err != nil {
			t.Fatal(err)
		}
		var texts []string
		sc := bufio.NewScanner(f)
		sc.Buffer(make([]byte, 1<<20), 1<<20)
		for sc.Scan() {
			var rec struct {
				Question string            `json:"question"`
				Answer   string            `json:"answer"`
				Options  map[string]string `json:"options"`
			}
			if err := json.Unmarshal(sc.Bytes(), &rec); err != nil {
				t.Fatalf("%s: %v", path, err)
			}
			texts = append(texts, rec.Question, rec.Answer)
			texts = append(texts, text.Sentences(rec.Question)...)
			texts = append(texts, chunksOf(rec.Question)...)
			for _, k := range slices.Sorted(func(yield func(string) bool) {
				for k := range rec.Options {
					if !yield(k) {
						return
					}
				}
			}) {
				texts = append(texts, rec.Options[k])
			}
		}
		f.Close()
		sources = append(sources, agreeSource{name: "medqa/" + filepath.Base(path), texts: texts, external: true})
	}
	if len(medqa) == 0 {
		t.Logf("medqa absent")
	}
	return sources
}

// pieces returns a testdata file as texts: the whole file, its blank-line
// separated blocks, its lines and their tab-separated fields.
func pieces(file string) []string {
	texts := []string{file}
	for _, block := range strings.Split(file, "\n\n") {
		texts = append(texts, block)
	}
	for _, line := range strings.Split(file, "\n") {
		texts = append(texts, line)
		if fields := strings.Split(line, "\t"); len(fields) > 1 {
			texts = append(texts, fields...)
		}
	}
	return texts
}

// chunksOf cuts s into pieces of about 300 bytes at rune boundaries,
// mid-word or not, as chunks and windows cut a text.
func chunksOf(s string) []string {
	var out []string
	for start := 0; start < len(s); {
		end := min(len(s), start+300)
		for end < len(s) && !utf8.RuneStart(s[end]) {
			end++
		}
		out = append(out, s[start:end])
		start = end
	}
	if len(out) < 2 {
		return nil
	}
	return out
}

// randomTexts returns n texts pieced together from the rules' literals,
// the finding patterns' words, units, numbers and punctuation, cut, cased
// and joined so that they overlap, nest and touch word boundaries. The
// words come from the exported tables and the lists below, so that the
// texts do not depend on how the package compiles them.
func randomTexts(n int) []string {
	var words []string
	for _, r := range TextRules {
		for _, list := range [][]string{r.Terms, r.Ignore} {
			for _, term := range list {
				if !strings.HasPrefix(term, "re:") && !strings.HasPrefix(term, "re(") {
					words = append(words, strings.TrimSuffix(term, "*"))
				}
			}
		}
	}
	for _, c := range NarrativeCues {
		for _, term := range c.Terms {
			if !strings.HasPrefix(term, "re(") {
				words = append(words, strings.TrimSuffix(term, "*"))
			}
		}
	}
	for _, g := range append(slices.Clone(AdminVocabulary), GenericHeading) {
		words = append(words, g.Words...)
		words = append(words, g.Zh...)
	}
	words = append(words, slices.Concat(labUnits, vitalUnits, otherUnits, rangeSeps, dimSeps)...)
	words = append(words, strings.Fields(`positive negative for positive for negative for no evidence of
		allergic reaction to allergy allergies anaphylaxis to NKDA no known drug allergies anaphylactic
		is was are were and or but with which who that in on at as since after from while the a an of
		penicillin latex sulfa severe mild seasonal known documented denies denied without not no
		阳性 阴性 未见 过敏 过敏史 过敏性 抗过敏 对 否认 曾 青霉素 性 鼻炎 (+) (-) （+） （-） (±) （++） (−)
		is scheduled are ordered was pending were planned be requested 待查 待回报 拟行 预约 建议行 待完善
		取 钳 送 刷检 穿刺 标本 2块 3针 多点活检 行活检 taken obtained performed sent submitted
		示 ： : 报告 诊断 符合 癌 瘤 炎 增生 化生 shows revealed consistent carcinoma adenoma benign
		（胃窦） （阑尾） (左乳) 黏膜慢性炎 急性化脓性阑尾炎 Findings: Impression: 所见： 结论：
		3天前 2 days ago for 4 days 10余年 加重1周 胸痛2小时 Fever 45岁 45-year-old 服 用 注射 后 出现 荨麻疹
		ref reference range normal range N: 参考值 参考范围 正常值 H L HH LL ↑ ↓ * Dr. Smith signed by
		报告医师：王明 WBC Hb pH INR 等位基因比 mm Hg mmHg ℃ 次/分 征 阳性 征（+）
		no-known drug-allergies allergieſ poſitive Known ſ K nkda anaphylaxis anaphylactoid
		specimen: Findings: Technique: comparison： 诊断意见： conclusion: 1+ +/- ++ ± −`)...)
	nums := []string{"0", "1", "2.3", "12.5", "125/85", "0.04", "< 0.04", "≥5", ">600", "3.5-5.1", "130-175",
		"8 × 6", "3.2×2.1×1.5", "4～5", "200–430", "10^9/L", "×10^9/L", "7.31", "1,200", "13%–15%", "24", "180/110"}
	seps := []string{" ", " ", " ", "", "-", ", ", ". ", "; ", ": ", "：", "\n", "（", "）", "(", ")", "，", "。",
		"；", "、", "s ", "ing ", "/", "\t", "  ", "! ", "? "}
	rng := rand.New(rand.NewPCG(26, 4))
	texts := make([]string, 0, n)
	for range n {
		var b strings.Builder
		for range 1 + rng.IntN(24) {
			var w string
			switch k := rng.IntN(10); {
			case k < 6:
				w = words[rng.IntN(len(words))]
			case k < 8:
				w = nums[rng.IntN(len(nums))]
			default:
				w = words[rng.IntN(len(words))] + nums[rng.IntN(len(nums))]
			}
			switch rng.IntN(6) {
			case 0:
				w = strings.ToUpper(w)
			case 1:
				w = w[rng.IntN(len(w)):] // a tail, perhaps mid-rune
			case 2:
				if len(w) > 0 {
					w = strings.ToUpper(w[:1]) + w[1:]
				}
			}
			b.WriteString(w)
			b.WriteString(seps[rng.IntN(len(seps))])
		}
		texts = append(texts, b.String())
	}
	return texts
}
