package text

import "testing"

func TestIsCJK(t *testing.T) {
	for _, r := range []rune{'肌', '。', '，', '（', 'ア', 'ひ', '한', '　'} {
		if !IsCJK(r) {
			t.Errorf("IsCJK(%q) = false, want true", r)
		}
	}
	for _, r := range []rune{'a', 'Z', '1', '.', ' ', '×', '℃', 'µ', 'é'} {
		if IsCJK(r) {
			t.Errorf("IsCJK(%q) = true, want false", r)
		}
	}
}

func TestLang(t *testing.T) {
	tests := []struct{ in, want string }{
		{"", "en"},
		{"Chest pain for two days.", "en"},
		{"患者胸痛2天。", "zh"},
		{"肌酐 2.8 mg/dL", "zh"},
		{"CT示右肺上叶结节 8 mm × 6 mm", "zh"},
		{"The formula 黄连解毒汤 is used for heat toxin syndromes in several trials.", "en"},
		{"2.3 ng/mL", "en"},
		{"主诉", "zh"},
	}
	for _, tt := range tests {
		if got := Lang(tt.in); got != tt.want {
			t.Errorf("Lang(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}
