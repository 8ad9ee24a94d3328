package packbench

import "github.com/medkb/medkb/internal/text"

// foldKeys folds keys for matching against packed text (text.FoldKey).
func foldKeys(keys []string) []string {
	out := make([]string, len(keys))
	for i, k := range keys {
		out[i] = text.FoldKey(k)
	}
	return out
}
