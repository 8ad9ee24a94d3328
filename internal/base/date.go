package base

import (
	"fmt"
	"math"
	"regexp"
	"strconv"
	"strings"
	"time"
)

// Day counts days since 1970-01-01 UTC. NoDay marks "no time given".
type Day int32

// NoDay is the Day of a record without a time.
const NoDay Day = math.MinInt32

// dateLayout is a layout ParseDay accepts and the period a date in it
// names: a day, a month or a year.
type dateLayout struct {
	layout string
	years  int
	months int
}

var dateLayouts = []dateLayout{
	{"2006-1-2", 0, 0},
	{time.RFC3339, 0, 0},
	{"2006-1-2T15:04:05", 0, 0},
	{"2006-1-2 15:04:05", 0, 0},
	{"2006-1-2 15:04", 0, 0},
	{"2006/1/2", 0, 0},
	{"2006/1/2 15:04:05", 0, 0},
	{"2006/1/2 15:04", 0, 0},
	{"2006.1.2", 0, 0},
	{"2006.1.2 15:04:05", 0, 0},
	{"2006.1.2 15:04", 0, 0},
	{"2006年1月2日", 0, 0},
	{"2006年1月2日 15:04:05", 0, 0},
	{"2006年1月2日 15:04", 0, 0},
	{"20060102", 0, 0},
	{"2006-1", 0, 1},
	{"2006/1", 0, 1},
	{"2006.1", 0, 1},
	{"2006年1月", 0, 1},
	{"2006", 1, 0},
}

// dateLayoutsHelp lists dateLayouts for error messages.
const dateLayoutsHelp = "want 2024-03-05, 2024/3/5, 2024.3.5, 2024年3月5日 or 20240305, each optionally with a time of day; " +
	"RFC 3339; a month (2024-03, 2024/3, 2024.3, 2024年3月); or a year (2024)"

// ParseDay reads a date in one of the accepted layouts: YYYY-MM-DD, also
// with / or . between the parts and with one-digit months and days,
// written 2024年3月5日, or YYYYMMDD, each optionally followed by a time of
// day (10:30, 10:30:00.123 +0800, T10:30, 10时, 8点30分); RFC 3339; a
// month written in the same ways (2024-03, 2024年3月); a year. Chinese
// records and EMR exports write dates all these ways. The day is the one
// written, whatever the zone. A month or a year gives its first day. ""
// gives NoDay.
func ParseDay(s string) (Day, error) {
	first, _, err := ParsePeriod(s)
	return first, err
}

// ParsePeriod is ParseDay that also returns the last day of the period
// the text names: the same day for a date, the month's or the year's last
// day for "2024-03" or "2024". "" gives NoDay, NoDay.
func ParsePeriod(s string) (first, last Day, err error) {
	s = strings.TrimSpace(s)
	if s == "" {
		return NoDay, NoDay, nil
	}
	for _, l := range dateLayouts {
		if t, err := time.Parse(l.layout, s); err == nil {
			// The day as written: "2024-03-05T01:00:00+08:00" is 5 March
			// where it was recorded, though 4 March in UTC.
			t = time.Date(t.Year(), t.Month(), t.Day(), 0, 0, 0, 0, time.UTC)
			if l.years == 0 && l.months == 0 {
				return DayOf(t), DayOf(t), nil
			}
			return DayOf(t), DayOf(t.AddDate(l.years, l.months, -1)), nil
		}
	}
	if d, ok := dayBeforeClock(s); ok {
		return d, d, nil
	}
	return NoDay, NoDay, fmt.Errorf("cannot read date %q (%s)", s, dateLayoutsHelp)
}

// dateThenClock is a date and then a time of day the layouts do not
// spell ("2024-03-05T10:30", "2024-03-05 10:30:00 +0800", "2024年3月5日10时").
// Groups: 1 a date with - / or . or 8 digits, which T or a space must
// follow; 2 a date written with 年月日, which may run into the time; 3 the
// hour; 4 minutes, 5 seconds and 6 a zone after colons; 7 minutes after
// 时 or 点.
var dateThenClock = regexp.MustCompile(`^(?:(\d{4}[-/.]\d{1,2}[-/.]\d{1,2}|\d{8})[T ]|(\d{4}年\d{1,2}月\d{1,2}日) ?)` +
	`(\d{1,2})(?::(\d{2})(?::(\d{2})(?:\.\d+)?)?(?:\s*(Z|[+-]\d{2}:?\d{2}))?|[时点](?:(\d{1,2})分)?)$`)

// dayBeforeClock reads s as a date followed by a valid time of day
// (dateThenClock): the day is the date's, whatever the zone.
func dayBeforeClock(s string) (Day, bool) {
	m := dateThenClock.FindStringSubmatch(s)
	if m == nil {
		return NoDay, false
	}
	num := func(g string) int { n, _ := strconv.Atoi(g); return n }
	if num(m[3]) > 23 || num(m[4]) > 59 || num(m[5]) > 59 || num(m[7]) > 59 {
		return NoDay, false
	}
	if z := strings.TrimLeft(m[6], "+-Z"); z != "" {
		z = strings.ReplaceAll(z, ":", "")
		if num(z[:2]) > 14 || num(z[2:]) > 59 {
			return NoDay, false
		}
	}
	first, last, err := ParsePeriod(m[1] + m[2])
	return first, err == nil && first == last
}

// DayOf returns the Day containing t (in UTC).
func DayOf(t time.Time) Day {
	return Day(t.UTC().Unix() / 86400)
}

// Time returns midnight UTC of d.
func (d Day) Time() time.Time { return time.Unix(int64(d)*86400, 0).UTC() }

// String formats d as YYYY-MM-DD, or "" for NoDay. A year of four digits
// is written by hand (every context line's head has its date; Format
// reads its layout each time), any other by Format.
func (d Day) String() string {
	if d == NoDay {
		return ""
	}
	y, m, dd := d.Time().Date()
	if y < 0 || y > 9999 {
		return d.Time().Format("2006-01-02")
	}
	b := [10]byte{byte('0' + y/1000), byte('0' + y/100%10), byte('0' + y/10%10), byte('0' + y%10), '-',
		byte('0' + int(m)/10), byte('0' + int(m)%10), '-', byte('0' + dd/10), byte('0' + dd%10)}
	return string(b[:])
}
