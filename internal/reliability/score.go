package reliability

import (
	"cmp"
	"math"

	"github.com/medkb/medkb/internal/base"
)

// HalfLife is the age, in years, at which a study keeps half of its
// recency share (see the package documentation).
const HalfLife = 10.0

// daysPerYear converts a day count to years.
const daysPerYear = 365.25

// Doc is what the score reads of a document: base.Doc's fields of the
// same names.
type Doc struct {
	Evidence, Type  string
	Title, Text     string
	Published, Time string
}

// Of is the part of d the score reads.
func Of(d *base.Doc) Doc {
	return Doc{Evidence: d.Evidence, Type: d.Type, Title: d.Title, Text: d.Text, Published: d.Published, Time: d.Time}
}

// DesignOf is d's design: its Evidence, else its Type, else, when both are
// empty, the cues of its title and text.
func DesignOf(d Doc) Design {
	if d.Evidence != "" || d.Type != "" {
		return cmp.Or(ParseDesign(d.Evidence), ParseDesign(d.Type))
	}
	return cueDesign(d.Title + "\n" + d.Text)
}

// Score is d's reliability in [0, 1] on day now: 0 when its design is
// unknown, else (k - 1 + 2^(-age/HalfLife)) / 8 with k its design's level
// (1 expert opinion .. 8 systematic review) and age its Published date's
// (else its Time's) years before now; 0 for a later date, HalfLife for
// none or one that does not parse, or when now is base.NoDay.
func Score(d Doc, now base.Day) float64 {
	design := DesignOf(d)
	if design == Unknown {
		return 0
	}
	return Band(design, Age(d, now))
}

// Band is the score of a design at age years: (k - 1 + 2^(-age/HalfLife))
// / 8, age clamped at 0. It panics on Unknown, which has no band.
func Band(design Design, age float64) float64 {
	if design <= Unknown || design > Synthesis {
		panic("reliability: Band of a design without a level")
	}
	return (float64(design-1) + math.Exp2(-math.Max(age, 0)/HalfLife)) / float64(levels)
}

// Age is d's age in years on day now: from Published, else Time; HalfLife
// when neither parses or now is base.NoDay, 0 when the date is after now.
func Age(d Doc, now base.Day) float64 {
	day := base.NoDay
	for _, s := range []string{d.Published, d.Time} {
		if parsed, err := base.ParseDay(s); err == nil && parsed != base.NoDay {
			day = parsed
			break
		}
	}
	if day == base.NoDay || now == base.NoDay {
		return HalfLife
	}
	return math.Max(0, float64(now-day)/daysPerYear)
}
