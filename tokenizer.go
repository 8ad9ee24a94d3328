package medkb

import (
	"sync"

	"github.com/medkb/medkb/internal/text"
)

// lazyTokenizer loads the cl100k_base tokenizer on first use. Loading
// takes tens of milliseconds, and most queries never count a token (chunk
// costs are stored at ingest), so a cold `medkb query` should not pay it.
type lazyTokenizer struct {
	once sync.Once
	tok  text.Tokenizer
}

func (l *lazyTokenizer) Count(s string) int {
	l.once.Do(func() {
		tok, err := text.NewTokenizer()
		if err != nil {
			// The vocabulary is compiled into the binary: failing to load
			// it is a broken build, not a runtime condition.
			panic("medkb: " + err.Error())
		}
		l.tok = tok
	})
	return l.tok.Count(s)
}
