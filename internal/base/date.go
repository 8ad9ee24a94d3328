package base

import (
	"fmt"
	"math"
	"strings"
	"time"
)

// Day counts days since 1970-01-01 UTC. NoDay marks "no time given".
type Day int32

// NoDay is the Day of a record without a time.
const NoDay Day = math.MinInt32

var dateLayouts = []string{
	"2006-01-02",
	time.RFC3339,
	"2006-01-02T15:04:05",
	"2006-01-02 15:04:05",
	"2006-01-02 15:04",
	"2006-01",
	"2006",
}

// ParseDay reads a date in one of the accepted layouts (YYYY-MM-DD,
// RFC 3339, "YYYY-MM-DD hh:mm[:ss]", YYYY-MM, YYYY). "" gives NoDay.
func ParseDay(s string) (Day, error) {
	s = strings.TrimSpace(s)
	if s == "" {
		return NoDay, nil
	}
	for _, layout := range dateLayouts {
		if t, err := time.Parse(layout, s); err == nil {
			return DayOf(t), nil
		}
	}
	return NoDay, fmt.Errorf("cannot read date %q (want YYYY-MM-DD, YYYY-MM, YYYY or RFC 3339)", s)
}

// DayOf returns the Day containing t (in UTC).
func DayOf(t time.Time) Day {
	return Day(t.UTC().Unix() / 86400)
}

// Time returns midnight UTC of d.
func (d Day) Time() time.Time { return time.Unix(int64(d)*86400, 0).UTC() }

// String formats d as YYYY-MM-DD, or "" for NoDay.
func (d Day) String() string {
	if d == NoDay {
		return ""
	}
	return d.Time().Format("2006-01-02")
}
