package graph

import (
	"testing"

	"github.com/medkb/medkb/internal/golden"
)

func TestCheckMetapathGolden(t *testing.T) {
	g := loadKG(t)
	golden.Run(t, "testdata/check.txt", func(t *testing.T, c *golden.Case) string {
		m, err := ParseMetapath(c.Input)
		if err == nil {
			err = g.CheckMetapath(m)
		}
		if err != nil {
			return describeError(c.Input, err)
		}
		return "ok " + m.String()
	})
}
