package main

import (
	"fmt"
	"os"

	"github.com/spf13/cobra"

	"github.com/medkb/medkb/index/embed"
)

// embedFlags name an embedder on the command line: --embedder,
// --embed-dim and --embed-url, read by embed.Named as a store reads the
// name and dimension it recorded. bench pack, tune and ingest share them.
type embedFlags struct {
	name string
	dim  int
	url  string
}

// register gives c the flags; def is --embedder's default ("" for none)
// and use says what the embedder is for.
func (f *embedFlags) register(c *cobra.Command, def, use string) {
	c.Flags().StringVar(&f.name, "embedder", def, use+": the built-in hash-v1, or openai:MODEL from an OpenAI-compatible server (Ollama, vLLM, TEI, ...)")
	c.Flags().IntVar(&f.dim, "embed-dim", 0, fmt.Sprintf("vector dimension: 0 means %d for hash-v1; required for openai:MODEL (the model's output dimension)", embed.DefaultHashDim))
	c.Flags().StringVar(&f.url, "embed-url", os.Getenv("MEDKB_EMBED_URL"), "server root for openai:MODEL, e.g. http://localhost:11434 (default $MEDKB_EMBED_URL)")
}

// embedder is the embedder the flags name, with the API key of the
// environment; nil when --embedder is empty.
func (f *embedFlags) embedder() (embed.Embedder, error) {
	if f.name == "" {
		return nil, nil
	}
	emb, err := embed.Named(f.name, f.dim, embed.OpenAIConfig{BaseURL: f.url, APIKey: embedServer().APIKey})
	if err != nil {
		return nil, fmt.Errorf("--embedder: %w", err)
	}
	return emb, nil
}
