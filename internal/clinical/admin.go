package clinical

import (
	"cmp"
	"regexp"
	"slices"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/medkb/medkb/internal/text"
)

// AdminGroup is one group of the administrative vocabulary: the words
// (English, lower case) and phrases (Chinese) of a report's handling and
// paperwork, which tell nothing about the patient. Marks is false for the
// connectives, dates and times that hold the others together: a sentence
// made of those alone ("On Monday.") is not known to be administrative.
type AdminGroup struct {
	Name  string
	Marks bool
	Words []string
	Zh    []string
}

// AdminVocabulary is every word a sentence state B drops may hold
// (Administrative). It is a list of what may go, not of what must stay:
// a word missing here keeps its sentence, so the list errs on the side of
// keeping. No word here can state a finding on its own: negations (no,
// not, without, 未, 无, 否认), sites and specimen kinds (left, venous,
// urine, 血清), results (positive, normal, 阴性), severities, diagnoses,
// organisms, drugs and reactions are all absent, and a sentence that holds
// one of them stays. "标本类型：尿液" stays, since the specimen says what a
// value was measured in (urine sodium is not serum sodium); so does
// "Specimen: venous blood" (a venous blood gas is no arterial one). Read-only.
var AdminVocabulary = []AdminGroup{
	{Name: "specimen handling and receipt", Marks: true,
		Words: []string{"specimen", "specimens", "sample", "samples", "container", "containers", "tube", "tubes",
			"received", "receipt", "fresh", "collected", "collection", "transported", "transport", "delivered",
			"processed", "processing", "formalin", "fixative", "fixed", "fixation", "cassette", "cassettes",
			"submitted", "entirely", "accessioned", "accession", "requisition", "barcode", "quality",
			"acceptable", "adequate", "adequacy", "satisfactory", "evaluation", "integrity"},
		Zh: []string{"标本", "样本", "送检", "送达", "接收", "收到", "签收", "采样", "采集", "固定", "包埋",
			"取材", "全部", "合格", "核对", "项目"}},
	{Name: "labels and identifiers", Marks: true,
		Words: []string{"labeled", "labelled", "label", "labels", "labeling", "labelling", "name", "names",
			"record", "records", "number", "numbers", "identifier", "identifiers", "mrn", "medical", "page"},
		Zh: []string{"姓名", "住院号", "门诊号", "床号", "病历号", "病案号", "登记号", "条码", "条形码", "编号", "页"}},
	{Name: "reporting and sign-off", Marks: true,
		Words: []string{"report", "reports", "reported", "reporting", "result", "results", "resulted",
			"reviewed", "review", "released", "release", "verified", "verification", "validated", "signed",
			"signature", "electronically", "electronic", "authorized", "authorised", "authorization",
			"approved", "dictated", "transcribed", "typed", "finalized", "finalised", "final", "amended",
			"addendum", "preliminary", "copy", "copies", "sent", "faxed", "printed", "issued", "archived",
			"available", "laboratory", "lab", "department", "dept", "clinic", "hospital", "centre", "center",
			"office", "service", "ward", "microbiology", "biochemistry", "cardiology", "oncology", "radiology", "neurology", "nephrology",
			"gastroenterology", "hepatology", "pulmonology", "hematology", "haematology", "endocrinology",
			"urology", "emergency", "biochemist", "pathologist", "radiologist", "cardiologist", "microbiologist", "physician", "doctor", "dr",
			"md", "consultant", "registrar", "technologist", "technician", "staff", "attending", "duty"},
		Zh: []string{"报告", "审核", "复核", "签发", "签名", "签字", "医师", "医生", "技师", "检验者", "审核者",
			"报告者", "检查者", "录入", "打印", "发布", "检验科", "病理科", "放射科", "影像科", "超声科", "科室",
			"本院", "我院", "备注"}},
	{Name: "disclaimers", Marks: true,
		Words: []string{"clinical", "clinically", "correlation", "correlate", "correlated", "interpret",
			"interpreted", "interpretation", "context", "relate", "relates", "tested", "valid", "intended",
			"purpose", "purposes", "use", "information", "research", "developed", "performance",
			"characteristics", "determined", "responsible", "responsibility", "reference", "interval",
			"intervals", "range", "ranges"},
		Zh: []string{"以上", "上述", "结果", "负责", "仅供", "参考", "临床", "结合", "反映", "情况"}},
	{Name: "contact and notification", Marks: true,
		Words: []string{"question", "questions", "query", "queries", "contact", "contacted", "call", "called",
			"phone", "telephone", "telephoned", "extension", "ext", "notified", "notify", "informed",
			"communicated", "discussed", "read", "back", "paged", "thank", "thanks", "referral", "kind",
			"regards", "sincerely"},
		Zh: []string{"如有疑问", "疑问", "联系", "电话", "咨询", "通知", "告知"}},
	{Name: "technique and dose", Marks: true,
		Words: []string{"technique", "techniques", "protocol", "images", "image", "imaging", "obtained",
			"acquired", "acquisition", "performed", "axial", "coronal", "sagittal", "multiplanar", "sequence",
			"sequences", "series", "reconstruction", "reconstructions", "reconstructed", "reformat",
			"reformats", "reformatted", "slice", "slices", "thickness", "contrast", "intravenous", "administered", "dose", "radiation", "dlp", "ctdi", "ctdivol", "mgy", "msv", "helical", "scanner",
			"scan", "scans", "standard", "study", "studies", "exam", "examination", "view", "views",
			"comparison", "compared", "prior", "previous", "earlier"},
		Zh: []string{"检查方法", "扫描方法", "检查技术", "扫描", "平扫", "层厚", "层距", "重建", "序列",
			"对比剂", "造影剂", "增强", "剂量", "辐射", "检查", "检验", "检测", "影像学", "影像"}},
	{Name: "follow-up advice", Marks: true,
		Words: []string{"follow", "followup", "up", "repeat", "return", "visit", "appointment", "schedule",
			"scheduled", "routine", "routinely", "advice", "advised", "advise", "recommended", "recommend",
			"recommends", "recommendation", "suggested"},
		Zh: []string{"建议", "定期", "随访", "复查", "复诊", "门诊", "必要时", "进一步", "动态", "观察"}},
	{Name: "carried-forward text", Marks: true,
		Words: []string{"copied", "carried", "forward", "forwarded", "imported", "pasted", "duplicated",
			"note", "notes", "entry", "entries"},
		Zh: []string{"复制自", "复制", "摘自", "转抄", "引用自", "病程记录", "门诊病历", "病历", "记录", "既往", "原"}},
	{Name: "connectives, dates and times", Marks: false,
		Words: []string{"a", "an", "the", "of", "in", "on", "at", "to", "by", "for", "from", "with", "and",
			"or", "as", "per", "via", "into", "upon", "within", "after", "before", "is", "are", "was", "were", "be", "been",
			"being", "will", "should", "may", "must", "this", "that", "these", "those", "it", "its", "all",
			"only", "any", "each", "our", "we", "us", "you", "your", "please", "if", "who", "which", "has",
			"have", "had", "also", "here", "following", "further", "same", "patient", "patients", "show",
			"shows", "showed", "date", "dated", "time", "times", "day", "days", "today", "hour", "hours",
			"hrs", "minute", "minutes", "mins", "one", "two", "three", "four", "five", "six", "seven", "eight",
			"nine", "ten", "eleven", "twelve", "week", "weeks", "month", "months", "year", "years", "am",
			"pm", "monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday", "january",
			"february", "march", "april", "june", "july", "august", "september", "october", "november",
			"december"},
		Zh: []string{"日期", "时间", "上午", "下午", "今日", "的", "之", "及", "和", "与", "或", "在", "为",
			"由", "于", "对", "等", "后", "前", "内", "至", "起", "请", "予", "以", "并", "且", "其", "该", "此",
			"已", "本", "次", "个", "仅", "经", "共", "第", "年", "月", "日", "时", "分", "秒", "号", "周"}},
}

// GenericHeading is the vocabulary of a heading that says no more than
// "results follow" ("Laboratory studies show:", "His laboratory tests are
// significant for the following:", "辅助检查："), which state B cuts from
// the start of a sentence (genericHeading). Words that qualify what
// follows are absent, and a heading that holds one stays: a specimen
// ("blood", "urine", "arterial", 尿), a time ("initial", "repeat", "prior",
// "2019", 复查), a site or an organ ("liver function tests"). Read-only.
var GenericHeading = AdminGroup{Name: "generic headings", Marks: true,
	Words: []string{"the", "a", "his", "her", "their", "patient", "patients", "laboratory", "lab", "labs",
		"studies", "study", "test", "tests", "testing", "result", "results", "finding", "findings", "values",
		"evaluation", "workup", "show", "shows", "showed", "reveal", "reveals", "revealed", "demonstrate",
		"demonstrates", "demonstrated", "include", "includes", "included", "are", "is", "were", "was", "as",
		"follows", "below", "shown", "significant", "notable", "for", "following", "of"},
	Zh: []string{"实验室检查", "实验室检验", "辅助检查", "检查结果", "检验结果", "化验结果", "化验", "结果"}}

// adminNames matches a person's name after a sign-off ("Electronically
// signed by Dr. J. Smith", "报告医师：王明"): names are no words of any
// vocabulary, yet a signature is administration.
var adminNames = regexp.MustCompile(`(?:\b(?:[Ss]igned|[Vv]erified|[Rr]eviewed|[Rr]eleased|[Rr]eported|[Dd]ictated|[Aa]uthori[sz]ed|[Aa]pproved|[Tt]ranscribed) by:?\s+(?:(?:Dr|Prof)\.?\s+)?|\b(?:Dr|Prof)\.?\s+)(?:[A-Z]\.\s*)?[A-Z][a-z]+(?:[ -][A-Z][a-z]+){0,2}\b` +
	`|(?:报告|审核|复核|检验|检查|送检|申请|录入|签发|主检|诊断|操作|记录)(?:医师|医生|技师|者|人)\s*[:：]?\s*\p{Han}{2,4}(?:$|[\s\p{P}])`)

// adminWordSet and adminPhrases are AdminVocabulary for lookup: English
// words, and Chinese phrases longest first, each with its group's Marks.
var adminWordSet, adminPhrases = func() (map[string]bool, []adminPhrase) {
	words := map[string]bool{}
	var phrases []adminPhrase
	for _, g := range AdminVocabulary {
		for _, w := range g.Words {
			words[w] = words[w] || g.Marks
		}
		for _, p := range g.Zh {
			phrases = append(phrases, adminPhrase{p, g.Marks})
		}
	}
	slices.SortStableFunc(phrases, func(a, b adminPhrase) int { return cmp.Compare(len(b.text), len(a.text)) })
	return words, phrases
}()

type adminPhrase struct {
	text  string
	marks bool
}

// Administrative reports whether s is an administrative sentence, one
// state B may drop: it is made only of words and phrases of
// AdminVocabulary, numbers, punctuation and the names of a sign-off, at
// least one of them marks it as administration, and it has two words or
// more. A symbol (+, ↑, °, ×), a letter of another script, or any other
// word keeps it; so does a lone word, which may be the value of a heading
// on the line before ("GRADE" then "IV", "PUPILS" then "Fixed").
func Administrative(s string) bool {
	if simple := text.Simplified(s); sameShape(simple, s) {
		s = simple // 標本 reads as 标本
	}
	if adminWords(s, false, 0) {
		return true
	}
	// Names cost a regular expression: only for a sentence that words
	// alone do not settle and that may hold a sign-off.
	if !mayName(s) {
		return false
	}
	named := adminNames.ReplaceAllString(s, " ")
	return named != s && adminWords(named, true, 2)
}

// adminWords is Administrative's walk over s, with marked and words the
// marks and words already seen (a sign-off's names count as two).
func adminWords(s string, marked bool, words int) bool {
	for i := 0; i < len(s); {
		r, size := utf8.DecodeRuneInString(s[i:])
		switch {
		case unicode.IsSpace(r) || unicode.IsPunct(r) || unicode.IsDigit(r):
			i += size
		case unicode.Is(unicode.Han, r):
			p, ok := adminPhraseAt(s, i)
			if !ok {
				return false
			}
			marked = marked || p.marks
			words++
			i += len(p.text)
		case unicode.IsLetter(r):
			end := wordEnd(s, i)
			marks, ok := adminWordSet[vocabularyForm(s[i:end])]
			if !ok {
				return false
			}
			marked = marked || marks
			words++
			i = end
		default:
			return false
		}
	}
	return marked && words >= 2
}

// mayName reports whether s holds a literal that every match of
// adminNames holds.
func mayName(s string) bool {
	for _, lit := range []string{"Dr", "Prof", " by", " By", "医师", "医生", "技师", "者", "人"} {
		if strings.Contains(s, lit) {
			return true
		}
	}
	return false
}

// genericHeading returns the end of the generic heading that starts s
// (GenericHeading), with its colon and the spaces after it, or 0: two
// words or more of the vocabulary, or one of its Chinese phrases, then a
// colon, with content after it. Nothing else may come before the colon.
func genericHeading(s string) int {
	colon := indexColon(s)
	if colon < 0 {
		return 0
	}
	_, size := utf8.DecodeRuneInString(s[colon:])
	end := colon + size
	for end < len(s) && isSpaceByte(s[end]) {
		end++
	}
	head := strings.TrimSpace(s[:colon])
	if end == len(s) || head == "" {
		return 0
	}
	if slices.Contains(GenericHeading.Zh, head) {
		return end
	}
	words := 0
	for i := 0; i < len(head); {
		r, size := utf8.DecodeRuneInString(head[i:])
		switch {
		case r == ' ':
			i += size
		case unicode.IsLetter(r) && !unicode.Is(unicode.Han, r):
			e := wordEnd(head, i)
			if !slices.Contains(GenericHeading.Words, vocabularyForm(head[i:e])) {
				return 0
			}
			words++
			i = e
		default:
			return 0
		}
	}
	if words < 2 {
		return 0
	}
	return end
}

// indexColon is strings.IndexAny(s, ":：") without decoding runes: the
// first ':' or '：' of s, or -1.
func indexColon(s string) int {
	i := strings.IndexByte(s, ':')
	if i < 0 {
		i = len(s)
	}
	if j := strings.Index(s[:i], "："); j >= 0 {
		return j
	}
	if i == len(s) {
		return -1
	}
	return i
}

// hasColon reports whether s holds ':' or '：'.
func hasColon(s string) bool { return indexColon(s) >= 0 }

func isSpaceByte(b byte) bool { return b == ' ' || b == '\t' || b == '\n' || b == '\r' }

// adminPhraseAt returns the longest Chinese phrase of the vocabulary at
// s[i:].
func adminPhraseAt(s string, i int) (adminPhrase, bool) {
	for _, p := range adminPhrases {
		if strings.HasPrefix(s[i:], p.text) {
			return p, true
		}
	}
	return adminPhrase{}, false
}

// vocabularyForm is word as the vocabularies write it: in lower case,
// without a possessive ("Patient’s" is "patient").
func vocabularyForm(word string) string {
	w := strings.ReplaceAll(strings.ToLower(word), "’", "'")
	return strings.TrimSuffix(strings.TrimSuffix(w, "'s"), "'")
}

// wordEnd returns the end of the word that starts at s[i]: letters of a
// script other than Han, with apostrophes between them ("patient's").
func wordEnd(s string, i int) int {
	for i < len(s) {
		r, size := utf8.DecodeRuneInString(s[i:])
		if r == '\'' || r == '’' {
			if next, _ := utf8.DecodeRuneInString(s[i+size:]); unicode.IsLetter(next) && !unicode.Is(unicode.Han, next) {
				i += size
				continue
			}
			return i
		}
		if !unicode.IsLetter(r) || unicode.Is(unicode.Han, r) {
			return i
		}
		i += size
	}
	return i
}
