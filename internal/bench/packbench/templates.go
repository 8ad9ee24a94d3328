package packbench

import (
	"math/rand/v2"
	"strconv"
	"strings"
)

// Follow-up boilerplate: text an EMR repeats on every visit and that
// carries no diagnostic value. Slots: {drug}, {dept}, {day}, {n}.
var boilerplateEN = []string{
	"Patient reminded to take {drug} as prescribed and to return in {n} weeks for follow-up.",
	"Follow-up call completed; the patient says the medication plan is being followed.",
	"Education given on diet, exercise and the medication schedule; the patient verbalized understanding.",
	"Appointment moved to {day} at the {dept} clinic at the patient's request.",
	"Nursing note: resting comfortably, call light within reach, no new concerns raised.",
	"Discharge instructions reviewed with the patient and family; a printed copy was given.",
	"Prescription for {drug} renewed for {n} months; pharmacy notified.",
	"The patient asked about parking and visiting hours; information provided.",
	"Pre-authorization form for the {dept} referral faxed on {day}.",
	"Routine visit; the patient says things are about the same as last time.",
	"Telephone encounter: voicemail left asking the patient to call the {dept} office back.",
	"Encouraged to keep a symptom diary and bring it to the next visit in {n} weeks.",
}

var boilerplateZH = []string{
	"嘱患者遵医嘱按时服用{drug}，{n}周后门诊复诊。",
	"电话随访已完成，患者表示按时服药，无特殊情况。",
	"已向患者及家属进行饮食、运动及用药宣教，患者表示理解。",
	"应患者要求，{dept}门诊复诊时间改至{day}。",
	"护理记录：患者安静休息，呼叫器置于床旁，未提出新的问题。",
	"出院指导已向患者及家属交代，并发放书面材料。",
	"续开{drug}处方{n}个月，已通知药房。",
	"患者咨询停车及探视时间，已告知。",
	"{dept}转诊的医保审批材料已于{day}提交。",
	"常规复诊，情况与上次大致相同。",
	"电话未接通，已留言请患者回电{dept}门诊。",
	"嘱患者记录症状日记，{n}周后复诊时带来。",
}

var (
	drugsEN = []string{"metformin", "lisinopril", "atorvastatin", "omeprazole", "amlodipine", "levothyroxine"}
	drugsZH = []string{"二甲双胍", "阿托伐他汀", "奥美拉唑", "氨氯地平", "左甲状腺素", "阿司匹林"}
	deptsEN = []string{"cardiology", "endocrinology", "gastroenterology", "neurology", "orthopedics", "dermatology"}
	deptsZH = []string{"心内科", "内分泌科", "消化内科", "神经内科", "骨科", "皮肤科"}
	daysEN  = []string{"Monday", "Tuesday", "Wednesday", "Thursday", "Friday"}
	daysZH  = []string{"周一", "周二", "周三", "周四", "周五"}
)

// boilerplate fills a random template of the language ("zh" or other).
func boilerplate(rng *rand.Rand, lang string) string {
	templates, drugs, depts, days := boilerplateEN, drugsEN, deptsEN, daysEN
	if lang == "zh" {
		templates, drugs, depts, days = boilerplateZH, drugsZH, deptsZH, daysZH
	}
	pick := func(xs []string) string { return xs[rng.IntN(len(xs))] }
	return strings.NewReplacer(
		"{drug}", pick(drugs),
		"{dept}", pick(depts),
		"{day}", pick(days),
		"{n}", strconv.Itoa(2+rng.IntN(5)),
	).Replace(pick(templates))
}
