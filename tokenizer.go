package medkb

import (
	"sync"

	"github.com/medkb/medkb/internal/text"
)

// lazyTokenizer loads the cl100k_base tokenizer on first use. Loading
// takes a few milliseconds, which commands that never count a token
// (stats, check, show) should not pay. A query counts the lines of the
// context it returns, and, to pack, the words around each candidate's
// text, whose own cost was stored at ingest (text.CountAround).
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
