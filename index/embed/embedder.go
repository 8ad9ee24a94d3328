package embed

import (
	"context"
	"errors"
	"fmt"
	"strings"
)

// Embedder turns texts into vectors. Implementations are safe for
// concurrent use.
type Embedder interface {
	// Name identifies the model, e.g. "hash-v1" or "openai:<model>". The
	// store records it with Dim and refuses to mix vectors of another.
	Name() string
	// Dim is the length of every vector Embed returns.
	Dim() int
	// Embed returns one L2-normalised vector per text, in order. A text
	// with nothing to embed (no word or character the model can use) may
	// get the zero vector, which scores 0 against every query.
	Embed(ctx context.Context, texts []string) ([][]float32, error)
}

// rows returns n vectors of dim floats sharing one allocation; each row's
// capacity is capped so that appending to one cannot overwrite the next.
func rows(n, dim int) [][]float32 {
	flat := make([]float32, n*dim)
	out := make([][]float32, n)
	for i := range out {
		out[i] = flat[i*dim : (i+1)*dim : (i+1)*dim]
	}
	return out
}

// ErrUnknown is returned by Named for a name no embedder here answers to.
var ErrUnknown = errors.New("medkb: unknown embedder")

// Named returns the embedder whose Name is name, with dimension dim:
// "hash-v1" (dim 0 means DefaultHashDim) or "openai:MODEL", served as
// server says (its BaseURL, APIKey and the rest; name and dim give Model
// and Dim, and dim is required: see NewOpenAI). A store records name and
// dim, so Named recreates its embedder; the CLI reads them from flags.
func Named(name string, dim int, server OpenAIConfig) (Embedder, error) {
	if dim < 0 {
		return nil, fmt.Errorf("%w: dimension %d", ErrConfig, dim)
	}
	if model, ok := strings.CutPrefix(name, openAIPrefix); ok {
		server.Model, server.Dim = model, dim
		return NewOpenAI(server)
	}
	if name != hashName {
		return nil, fmt.Errorf("%w %q: want %s or %sMODEL", ErrUnknown, name, hashName, openAIPrefix)
	}
	return NewHash(dim), nil
}
