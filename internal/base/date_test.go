package base

import "testing"

func TestParseDay(t *testing.T) {
	want, err := ParseDay("2024-03-05")
	if err != nil || want.String() != "2024-03-05" {
		t.Fatalf("ParseDay(2024-03-05) = %v, %v", want, err)
	}
	for _, s := range []string{
		"2024-3-5", "2024-03-05T10:30:00Z", "2024-03-05T10:30:00", "2024-03-05 10:30",
		"2024/03/05", "2024/3/5 08:00", "2024.03.05", "2024.03.05 10:30", "2024年3月5日", "2024年03月05日 10:30",
		"2024年3月5日 10:30:15",
		" 2024-03-05 ", "20240305", "2024-03-05T10:30", "2024-03-05 10:30:00 +0800", "2024-03-05 10:30:00.123",
		"2024年3月5日10时", "2024年3月5日 8点30分", "20240305 10:30", "2024-03-05T01:00:00+08:00", "2024-03-05T23:00:00-05:00",
	} {
		if got, err := ParseDay(s); err != nil || got != want {
			t.Errorf("ParseDay(%q) = %v, %v; want %v", s, got, err, want)
		}
	}
	for s, w := range map[string]string{"2024-03": "2024-03-01", "2024/3": "2024-03-01", "2024.03": "2024-03-01", "2024年3月": "2024-03-01", "2024": "2024-01-01"} {
		if got, err := ParseDay(s); err != nil || got.String() != w {
			t.Errorf("ParseDay(%q) = %v, %v; want %s", s, got, err, w)
		}
	}
	if d, err := ParseDay(""); err != nil || d != NoDay {
		t.Errorf(`ParseDay("") = %v, %v; want NoDay`, d, err)
	}
	for _, s := range []string{"yesterday", "2024-13-01", "2024-02-30", "05/03/2024", "2024年13月1日",
		"2024-03T10:30", "20241305", "2024-03-05 noon", "2024-03-05 10:30 later",
		"2024-03-05 99:99", "2024-03-05 25:00", "2024-03-05 10:61", "2024-03-05 10:30:61", "2024年3月5日99时",
		"2024年3月5日10时99分", "2024-03-05 10:30 +9999", "2024-03-05T10:30+25:00", "2024-3-110:30", "2024-1-310时"} {
		if _, err := ParseDay(s); err == nil {
			t.Errorf("ParseDay(%q) accepted", s)
		}
	}
}

func TestParsePeriod(t *testing.T) {
	for s, want := range map[string][2]string{
		"2024-03-05":      {"2024-03-05", "2024-03-05"},
		"2024-02":         {"2024-02-01", "2024-02-29"},
		"2024/2":          {"2024-02-01", "2024-02-29"},
		"2023年12月":        {"2023-12-01", "2023-12-31"},
		"2018":            {"2018-01-01", "2018-12-31"},
		"2024年3月5日 10:30": {"2024-03-05", "2024-03-05"},
	} {
		first, last, err := ParsePeriod(s)
		if err != nil || first.String() != want[0] || last.String() != want[1] {
			t.Errorf("ParsePeriod(%q) = %v, %v, %v; want %v", s, first, last, err, want)
		}
	}
}

// FuzzParseDay checks that whatever ParseDay accepts, it reads as a day
// that prints back as a date it accepts again as the same day.
func FuzzParseDay(f *testing.F) {
	for _, s := range []string{"2024-03-05", "2024年3月5日10时", "20240305 10:30", "2024-03-05T01:00:00+08:00", "2024", "2024/3"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		first, last, err := ParsePeriod(s)
		if err != nil || first == NoDay && last == NoDay { // refused, or "" (no time)
			return
		}
		if first == NoDay || last < first {
			t.Fatalf("ParsePeriod(%q) = %v, %v", s, first, last)
		}
		if again, err := ParseDay(first.String()); err != nil || again != first {
			t.Fatalf("ParseDay(%q) = %v, %v; the day %v printed as %q reads back as %v, %v", s, first, err, first, first.String(), again, err)
		}
	})
}

// TestDayString: the hand-written YYYY-MM-DD is Format's, across the
// four-digit years and past them.
func TestDayString(t *testing.T) {
	for _, d := range []Day{-719529, -719528, -1, 0, 1, 19000, 2932896, 2932897, 3000000} {
		for k := range Day(800) {
			if got, want := (d + k).String(), (d + k).Time().Format("2006-01-02"); got != want {
				t.Fatalf("Day(%d).String() = %q, Format gives %q", d+k, got, want)
			}
		}
	}
}
