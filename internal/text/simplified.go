package text

import (
	"sync"
	"unicode/utf8"

	"github.com/longbridgeapp/opencc"
)

// traditionalMarks are common characters that only Traditional Chinese
// writes (Simplified has 检, 验, 体, ...). A text without any of them is
// taken to be Simplified already, which spares it the conversion; a
// clinical note in Traditional Chinese holds several.
const traditionalMarks = "檢驗體診斷報電圖過陽陰腫節結細織療藥壓脈聽觸狀現歷醫們個來時後說這為學國發會與見顯變動實應無認頭腦臟腎膽紅鈣鉀鈉"

var (
	t2sOnce sync.Once
	t2s     *opencc.OpenCC

	traditionalSet = func() map[rune]bool {
		m := map[rune]bool{}
		for _, r := range traditionalMarks {
			m[r] = true
		}
		return m
	}()
)

// hasTraditional reports whether s holds one of traditionalMarks; ASCII
// bytes are skipped without decoding, so English text costs one pass.
func hasTraditional(s string) bool {
	for i := 0; i < len(s); {
		if s[i] < utf8.RuneSelf {
			i++
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		if traditionalSet[r] {
			return true
		}
		i += size
	}
	return false
}

// Simplified returns s in Simplified Chinese, converted by OpenCC's t2s
// dictionaries (characters and phrases), or s itself when it holds no
// Traditional character (see traditionalMarks) or the conversion fails.
// The clinical rules are written in Simplified Chinese; a record from
// Taiwan or Hong Kong reads 檢驗 and 過敏 for 检验 and 过敏. Safe for
// concurrent use.
func Simplified(s string) string {
	if !hasTraditional(s) {
		return s
	}
	t2sOnce.Do(func() {
		t2s, _ = opencc.New("t2s") // the dictionaries are embedded; a failure leaves t2s nil
	})
	if t2s == nil {
		return s
	}
	out, err := t2s.Convert(s)
	if err != nil {
		return s
	}
	return out
}
