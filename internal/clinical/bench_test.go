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

func BenchmarkClassify(b *testing.B) {
	for _, bc := range []struct{ name, text string }{
		{"lab-report", benchReport},
		{"complaint-fallthrough", benchComplaint},
	} {
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
