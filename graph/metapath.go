package graph

import (
	"fmt"
	"strconv"
	"strings"
)

// Limits of the metapath language, to keep expansion bounded.
const (
	MaxSteps  = 8 // steps in one metapath
	MaxRepeat = 8 // largest repeat count of one step, and largest Hops
)

// Metapath is a typed walk pattern: a start type and steps, each following
// one relation forwards or backwards to a type. It is written
//
//	Compound -binds-> Gene <-associates- Disease
//	Syndrome -causes*-> Syndrome
//	Syndrome -causes*1..3-> Syndrome
//
// A repeated step "-r*->" follows r one to Hops times (Hops is given at
// expansion), "-r*m..n->" m to n times; every node it passes through must
// have the step's target type. Positions are rune offsets into the parsed
// text (zero for hand-made values), for error messages.
type Metapath struct {
	Start    string
	StartPos int
	Steps    []Step
}

// Step is one relation hop (or repeated hop) of a metapath.
type Step struct {
	Relation string
	RelPos   int
	Reverse  bool // "<-r-": follow edges from To to the previous type
	// Min and Max bound how many times the step repeats: 1, 1 for a plain
	// step; Max == 0 means "up to the expansion's Hops".
	Min, Max int
	To       string
	ToPos    int
}

// MetapathError is a metapath syntax error (from ParseMetapath) or a
// mismatch with a graph (from CheckMetapath). Offset counts runes from the
// start of the metapath text, so a caller that embedded the text in a
// query can turn it into a line and column there.
type MetapathError struct {
	Offset int
	Msg    string
}

func (e *MetapathError) Error() string {
	return fmt.Sprintf("metapath offset %d: %s", e.Offset, e.Msg)
}

// String returns the canonical text of m, which ParseMetapath reads back
// to an equal Metapath (positions aside).
func (m *Metapath) String() string {
	var b strings.Builder
	b.WriteString(m.Start)
	for _, s := range m.Steps {
		b.WriteByte(' ')
		if s.Reverse {
			b.WriteString("<-")
		} else {
			b.WriteByte('-')
		}
		b.WriteString(s.Relation)
		b.WriteString(s.repeatText())
		if s.Reverse {
			b.WriteByte('-')
		} else {
			b.WriteString("->")
		}
		b.WriteByte(' ')
		b.WriteString(s.To)
	}
	return b.String()
}

func (s Step) repeatText() string {
	switch {
	case s.Max == 0:
		return "*"
	case s.Min == 1 && s.Max == 1:
		return ""
	}
	return "*" + strconv.Itoa(s.Min) + ".." + strconv.Itoa(s.Max)
}

// Hops returns the most edges a path of m can have when "*" means hops.
func (m *Metapath) Hops(hops int) int {
	n := 0
	for _, s := range m.Steps {
		n += s.bounds(hops).max
	}
	return n
}

type repeatBounds struct{ min, max int }

// bounds resolves the step's repeat range for an expansion with hops.
func (s Step) bounds(hops int) repeatBounds {
	if s.Max == 0 {
		return repeatBounds{s.Min, max(s.Min, hops)}
	}
	return repeatBounds{s.Min, s.Max}
}
