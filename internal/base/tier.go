package base

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strconv"
	"strings"
)

// Tier is the evidence tier of a block (docs/ingest.md): T1 gold
// standard, T2 objective examination, T3 professional observation, T4
// subjective description. The zero value means "not given".
type Tier uint8

// The tiers, most objective first.
const (
	TierNone Tier = iota
	T1
	T2
	T3
	T4
)

// Tiers lists the four real tiers in order.
var Tiers = [...]Tier{T1, T2, T3, T4}

// String returns "T1".."T4", or "" for TierNone.
func (t Tier) String() string {
	if t >= T1 && t <= T4 {
		return "T" + string(rune('0'+t))
	}
	return ""
}

// Valid reports whether t is one of T1..T4.
func (t Tier) Valid() bool { return t >= T1 && t <= T4 }

// ParseTier reads "T1".."T4" (case-insensitive, surrounding space ignored).
func ParseTier(s string) (Tier, error) {
	switch strings.ToUpper(strings.TrimSpace(s)) {
	case "T1":
		return T1, nil
	case "T2":
		return T2, nil
	case "T3":
		return T3, nil
	case "T4":
		return T4, nil
	}
	return TierNone, fmt.Errorf("unknown tier %q (want T1, T2, T3 or T4)", s)
}

// MarshalText implements encoding.TextMarshaler.
func (t Tier) MarshalText() ([]byte, error) { return []byte(t.String()), nil }

// UnmarshalText implements encoding.TextUnmarshaler; "" leaves TierNone.
func (t *Tier) UnmarshalText(b []byte) error {
	if len(b) == 0 {
		*t = TierNone
		return nil
	}
	v, err := ParseTier(string(b))
	if err != nil {
		return err
	}
	*t = v
	return nil
}

// UnmarshalJSON reads a tier written as "T1".."T4" (see ParseTier) or
// as its number, 1 to 4, bare or quoted ("tier": 2, "2", or 2.0 as a
// spreadsheet export writes it), which a hand-written file may well use.
// null leaves t as it is, as encoding/json does for other types.
func (t *Tier) UnmarshalJSON(b []byte) error {
	b = bytes.TrimSpace(b)
	if string(b) == "null" {
		return nil
	}
	s := string(b)
	if len(b) > 0 && b[0] == '"' {
		if err := json.Unmarshal(b, &s); err != nil {
			return err
		}
		if strings.TrimSpace(s) == "" {
			*t = TierNone
			return nil
		}
	}
	if n, err := strconv.ParseFloat(strings.TrimSpace(s), 64); err == nil {
		if n != 1 && n != 2 && n != 3 && n != 4 {
			return fmt.Errorf("unknown tier %s (want T1, T2, T3 or T4, or 1 to 4)", s)
		}
		*t = Tier(n)
		return nil
	}
	v, err := ParseTier(s)
	if err != nil {
		return fmt.Errorf("unknown tier %q (want T1, T2, T3 or T4, or 1 to 4)", s)
	}
	*t = v
	return nil
}
