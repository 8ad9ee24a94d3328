package text

import (
	"fmt"

	"github.com/tiktoken-go/tokenizer"
)

// Tokenizer counts the tokens a string costs in a prompt.
type Tokenizer interface {
	Count(s string) int
}

// NewTokenizer returns the cl100k_base token counter. It works offline (the
// vocabulary is compiled in) and is safe for concurrent use; build one and
// share it, since construction compiles the split pattern.
func NewTokenizer() (Tokenizer, error) {
	codec, err := tokenizer.Get(tokenizer.Cl100kBase)
	if err != nil {
		return nil, fmt.Errorf("medkb: load cl100k_base tokenizer: %w", err)
	}
	return cl100k{codec: codec}, nil
}

type cl100k struct {
	codec tokenizer.Codec
}

// Count returns the number of cl100k_base tokens in s. The codec only fails
// when its split pattern fails to match, which it does not do on any input;
// should it ever, Count returns len(s), an upper bound (every token covers at
// least one byte), so a budget computed from it is never exceeded.
func (c cl100k) Count(s string) int {
	n, err := c.codec.Count(s)
	if err != nil {
		return len(s)
	}
	return n
}
