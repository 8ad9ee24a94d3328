package medkb

import (
	"time"

	"github.com/medkb/medkb/index/embed"
)

// Defaults for Options fields left zero.
const (
	DefaultChunkTokens = 256
	DefaultDim         = embed.DefaultHashDim
)

// Options configure Open. A nil *Options means all defaults.
type Options struct {
	// ReadOnly opens the store for queries only, with a shared lock.
	ReadOnly bool
	// LockTimeout bounds the wait for another process's lock; zero means
	// store.DefaultLockTimeout (10 s). Open never waits forever.
	LockTimeout time.Duration
	// Embedder builds vectors for chunks and queries. Nil means the one the
	// store recorded, or the built-in hash embedder (dimension 384) for a
	// new store.
	Embedder embed.Embedder
	// ChunkTokens caps a chunk's length in tokens; zero means 256.
	ChunkTokens int
}

func (o *Options) chunkTokens() int {
	if o == nil || o.ChunkTokens <= 0 {
		return DefaultChunkTokens
	}
	return o.ChunkTokens
}
