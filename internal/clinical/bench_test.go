package clinical

import (
	"fmt"
	"testing"

	"github.com/medkb/medkb/internal/base"
)

// A lab report of about 80 words with filler, the size of a typical chunk.
const benchReport = `Specimen: venous blood drawn in the emergency department and received in the
laboratory at 14:32. Specimen quality acceptable, no hemolysis observed. High-sensitivity
troponin I 2.3 ng/mL (reference < 0.04 ng/mL); critical value telephoned to the emergency
physician at 14:51 and read back. CK-MB 45 U/L. Creatinine 1.1 mg/dL. Potassium 4.2 mmol/L.
Results were reviewed and released by the duty biochemist. Please interpret all results in
the clinical context.`

const benchComplaint = `I started getting this pressure in the middle of my chest about two hours
ago while I was carrying the groceries up the stairs. It feels like somebody is sitting on
me, and it goes up into my jaw and down my left arm. I broke out in a cold sweat and felt
sick to my stomach.`

// An abstract as the NFCorpus documents give it: lower case, without
// punctuation, long, with "positive" and "negative" in it.
const benchAbstract = `randomized controlled trial effect dietary intervention serum cholesterol breast cancer
risk abstract background evidence suggests diet influences hormone receptor positive breast cancer methods
women aged num years randomized low fat diet control group plasma estradiol measured baseline num months
serum cholesterol decreased num mg dl intervention group results estrogen receptor negative tumors were
positive association red meat intake risk ratio num confidence interval num num hormone receptor negative
cases showed no association subjects who were positive for antibodies had higher levels patients were
seronegative women with positive family history excluded test results were negative in most participants
conclusion low fat diet reduced serum cholesterol and was associated with lower risk of estrogen receptor
positive breast cancer among postmenopausal women further trials are needed to confirm these findings`

const benchChinese = `血常规：白细胞12.5×10^9/L（3.5-9.5）↑，中性粒细胞百分比85%（40-75）↑，血红蛋白118g/L（130-175）↓。
尿常规：尿蛋白（+），隐血（-）。胸部CT示右下肺实变，未见胸腔积液。对青霉素过敏，否认其他药物过敏史。
报告医师：王明`

// benchCases are the texts both benchmarks run on.
var benchCases = []struct{ name, text string }{
	{"lab-report", benchReport},
	{"complaint-fallthrough", benchComplaint},
	{"abstract", benchAbstract},
	{"chinese", benchChinese},
}

func BenchmarkClassify(b *testing.B) {
	for _, bc := range benchCases {
		b.Run(bc.name, func(b *testing.B) {
			for b.Loop() {
				Classify("", base.TierNone, bc.text)
			}
		})
	}
}

func BenchmarkKeys(b *testing.B) {
	b.ReportAllocs()
	for b.Loop() {
		Keys(benchReport)
	}
}

// BenchmarkKeysStateB is what ingest asks of a T1 or T2 chunk.
func BenchmarkKeysStateB(b *testing.B) {
	count := func(s string) int { return len(s) / 4 }
	for _, bc := range benchCases {
		b.Run(bc.name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				KeysStateB(bc.text, true, count(bc.text), count)
			}
		})
	}
}

func BenchmarkCompress(b *testing.B) {
	b.ReportAllocs()
	for b.Loop() {
		Compress(benchReport)
	}
}

func ExampleClassify() {
	tier, why := Classify("", base.TierNone, "An ECG shows ST-segment elevation in leads II, III and aVF.")
	fmt.Println(tier, why)
	tier, why = Classify("病理报告", base.TierNone, "")
	fmt.Println(tier, why)
	// Output:
	// T2 text rule: ECG
	// T1 type table: pathology
}

func ExampleCompress() {
	b, n, total := Compress("The specimen was received in formalin. Serum creatinine was elevated at 2.8 mg/dL, and troponin I was 2.3 ng/mL. Clinical correlation is recommended.")
	fmt.Println(b)
	fmt.Println(n, "of", total, "keys kept")
	// Output:
	// Serum creatinine was elevated at 2.8 mg/dL, and troponin I was 2.3 ng/mL.
	// 2 of 2 keys kept
}
