package bm25

import (
	"context"
	"os"
	"slices"
	"testing"
	"time"

	"github.com/blevesearch/bleve/v2"
)

func TestScratchTies(t *testing.T) {
	dir := os.Getenv("XDIR")
	if dir == "" {
		t.Skip()
	}
	ix, err := Open(dir, &Options{ReadOnly: true})
	if err != nil {
		t.Fatal(err)
	}
	defer ix.Close()
	m := newTextModel(t)
	ctx := context.Background()
	for _, mode := range []string{"fast", "s101", "s201", "s401", "fast", "s101", "s201", "s401"} {
		var lat []time.Duration
		for rep := 0; rep < 5; rep++ {
			for _, qt := range m.queries {
				s := time.Now()
				if mode == "current" {
					ix.Search(ctx, qt, 50, nil)
				} else {
					q, _ := searchQuery(qt, nil)
					c, _ := ix.withStats(ctx, nil)
					n := 51
					switch mode {
					case "s101":
						n = 101
					case "s201":
						n = 201
					case "s401":
						n = 401
					}
					req := bleve.NewSearchRequestOptions(q, n, 0, false)
					if mode == "sorted" {
						req.SortBy([]string{"-_score", "_id"})
					}
					ix.bleve.SearchInContext(c, req)
				}
				lat = append(lat, time.Since(s))
			}
		}
		slices.Sort(lat)
		var sum time.Duration
		for _, l := range lat {
			sum += l
		}
		t.Logf("%s: p50 %v mean %v p90 %v", mode, lat[len(lat)/2], sum/time.Duration(len(lat)), lat[len(lat)*9/10])
	}
}
