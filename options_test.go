package medkb

import (
	"context"
	"errors"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/medkb/medkb/index/embed"
	"github.com/medkb/medkb/store"
)

// zeroDim is an embedder that claims no dimension.
type zeroDim struct{ embed.Embedder }

func (zeroDim) Dim() int { return 0 }

// TestOptionsValidate checks that a value that cannot be meant is an
// error naming its field, from Validate and from every entry point that
// takes options, rather than the default in disguise.
func TestOptionsValidate(t *testing.T) {
	var none *Options
	if err := none.Validate(); err != nil {
		t.Fatalf("nil options: %v", err)
	}
	if err := (&Options{LockTimeout: time.Second, ChunkTokens: 64}).Validate(); err != nil {
		t.Fatalf("good options: %v", err)
	}
	dir := filepath.Join(t.TempDir(), "kb")
	for _, tc := range []struct {
		opts  Options
		field []string
	}{
		{Options{ChunkTokens: -1}, []string{"Options.ChunkTokens is -1"}},
		{Options{LockTimeout: -time.Second}, []string{"Options.LockTimeout is -1s"}},
		{Options{Embedder: zeroDim{embed.NewHash(8)}}, []string{"Options.Embedder hash-v1 has dimension 0"}},
		{Options{ChunkTokens: -5, LockTimeout: -1}, []string{"Options.ChunkTokens", "Options.LockTimeout"}},
	} {
		err := tc.opts.Validate()
		for _, f := range tc.field {
			if err == nil || !strings.Contains(err.Error(), f) {
				t.Errorf("%+v: Validate = %v, want it to name %s", tc.opts, err, f)
			}
		}
		if _, err := Open(dir, &tc.opts); err == nil || !strings.Contains(err.Error(), tc.field[0]) {
			t.Errorf("%+v: Open = %v", tc.opts, err)
		}
		if _, err := Check(dir, &tc.opts); err == nil || !strings.Contains(err.Error(), tc.field[0]) {
			t.Errorf("%+v: Check = %v", tc.opts, err)
		}
		if _, err := Backup(context.Background(), dir, dir+".bak", &tc.opts); err == nil || !strings.Contains(err.Error(), tc.field[0]) {
			t.Errorf("%+v: Backup = %v", tc.opts, err)
		}
	}
	for _, o := range []RebuildOptions{{ChunkTokens: -1}, {LockTimeout: -1}, {Grace: -time.Second}} {
		if _, err := Rebuild(context.Background(), dir, &o); err == nil || !strings.Contains(err.Error(), "RebuildOptions.") {
			t.Errorf("%+v: Rebuild = %v", o, err)
		}
	}
}

// TestNoEnvironment checks that the embedding server comes from
// Options.EmbedServer only: the library reads no environment variable.
func TestNoEnvironment(t *testing.T) {
	t.Setenv("MEDKB_EMBED_URL", "http://localhost:11434")
	m := store.Meta{Embedder: "openai:bge-m3", Dim: 1024}
	// Without a server the store still opens (stats, export): only what
	// embeds fails.
	e, err := chooseEmbedder(nil, m, embed.OpenAIConfig{})
	if err != nil || e.Name() != "openai:bge-m3" || e.Dim() != 1024 {
		t.Fatalf("without EmbedServer: %v, %v", e, err)
	}
	_, err = e.Embed(context.Background(), []string{"x"})
	if !errors.Is(err, ErrNotServed) || !errors.Is(err, embed.ErrConfig) || !strings.Contains(err.Error(), "the store's embedder is not served: openai:bge-m3 (dim 1024)") ||
		!strings.Contains(err.Error(), "not an http(s) URL") {
		t.Fatalf("without EmbedServer: %v; want the missing URL refused", err)
	}
	e, err = chooseEmbedder(nil, m, embed.OpenAIConfig{BaseURL: "http://example.org:1"})
	if err != nil || e.Name() != "openai:bge-m3" || e.Dim() != 1024 {
		t.Fatalf("with EmbedServer: %v, %v", e, err)
	}
}
