package graph

import "testing"

func TestCheckMetapathGolden(t *testing.T) {
	g := loadKG(t)
	runGolden(t, "check.txt", func(t *testing.T, c goldenCase) string {
		m, err := ParseMetapath(c.input)
		if err == nil {
			err = g.CheckMetapath(m)
		}
		if err != nil {
			return describeError(c.input, err)
		}
		return "ok " + m.String()
	})
}
