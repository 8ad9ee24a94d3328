package base

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"
)

// Tier is the evidence tier of a block (SEEDS.md section 1): T1 gold
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

// UnmarshalJSON reads a tier written as a string (see UnmarshalText) or
// as its number, 1 to 4, which a hand-written file may well use; null
// leaves TierNone.
func (t *Tier) UnmarshalJSON(b []byte) error {
	b = bytes.TrimSpace(b)
	switch {
	case string(b) == "null":
		*t = TierNone
		return nil
	case len(b) > 0 && b[0] == '"':
		var s string
		if err := json.Unmarshal(b, &s); err != nil {
			return err
		}
		return t.UnmarshalText([]byte(s))
	case len(b) == 1 && b[0] >= '1' && b[0] <= '4':
		*t = Tier(b[0] - '0')
		return nil
	}
	return fmt.Errorf("unknown tier %s (want T1, T2, T3 or T4, or 1 to 4)", b)
}
