package sql

import (
	"math/big"
	"strings"
)

// Interval literals as Spark's AstBuilder reads them (visitInterval, with ANSI intervals,
// Spark's default since 3.2): one literal holds either year-month fields or day-time
// fields, never both; a unit-to-unit literal ('1 2:03:04' DAY TO SECOND) is a string in its
// own form; a string without units ('1 day 2 hours') is read as IntervalUtils does.

// isYearMonth reports whether a unit is a year-month field.
func isYearMonth(u string) bool {
	switch strings.TrimSuffix(upper(u), "S") {
	case "YEAR", "MONTH":
		return true
	}
	return false
}

// checkInterval checks the tokens of an interval literal (after INTERVAL): value unit pairs,
// or one value with unit TO unit, or one string. start is the literal's offset.
func (p *rd) checkInterval(parts []string, start int) {
	if p.err != nil || len(parts) == 0 {
		return
	}
	fail := func(msg string) { p.failAt(start, "invalid interval literal: "+msg) }
	var units []string
	to := -1
	values := 0
	for i, w := range parts {
		switch {
		case strings.EqualFold(w, "TO"):
			to = i
		case w[0] == '\'' || w[0] == '"' || isDigit(w[0]) || w[0] == '.':
			values++
		case w == "-" || w == "+":
		default:
			units = append(units, w)
		}
	}
	if to >= 0 {
		p.checkUnitToUnit(parts, to, values, start, fail)
		return
	}
	if len(units) == 0 {
		p.intervalText(unquoteString(parts[len(parts)-1]), start, fail)
		return
	}
	if mixed(units) {
		p.use(featIntervalMixed, start)
		return
	}
	if len(units) == 1 && values == 1 {
		v := parts[len(parts)-2]
		if v[0] == '\'' || v[0] == '"' {
			if s := strings.TrimSpace(unquoteString(v)); !isSignedNumber(s) {
				fail("the value " + v + " of a single unit is not a number")
			}
		}
	}
}

// intervalText checks an interval written as one string; fail reports what is wrong.
func (p *rd) intervalText(s string, start int, fail func(string)) {
	switch msg := intervalString(s); msg {
	case "":
	case mixedFields:
		p.use(featIntervalMixed, start)
	default:
		for i := 0; i < len(s); i++ {
			if s[i] >= 0x80 {
				p.use(featIntervalNonASCII, start)
				return
			}
		}
		fail(msg)
	}
}

// minMonths is unitToUnit's answer for -178956970-8 YEAR TO MONTH (-2^31 months), which
// Spark before 3.2 read as an overflow; wideField its answer for a first field of hours or
// minutes of more than two digits, which the patterns of Spark before 3.2 did not match.
const (
	minMonths = "-2^31 months"
	wideField = "a first field of more than two digits"
)

// mixedFields is intervalString's answer for a string mixing year-month and day-time fields.
const mixedFields = "it mixes year-month and day-time fields"

// mixed reports whether units hold both year-month and day-time fields.
func mixed(units []string) bool {
	ym, dt := false, false
	for _, u := range units {
		if isYearMonth(u) {
			ym = true
		} else {
			dt = true
		}
	}
	return ym && dt
}

// checkUnitToUnit checks INTERVAL 'value' from TO to.
func (p *rd) checkUnitToUnit(parts []string, to, values, start int, fail func(string)) {
	if values != 1 || to < 2 || to+1 >= len(parts) {
		fail("a unit-to-unit interval (… TO …) stands alone in its literal")
		return
	}
	v := parts[to-2]
	if v[0] != '\'' && v[0] != '"' {
		fail("the value of a unit-to-unit interval is a string, not " + v)
		return
	}
	from, until := upper(parts[to-1]), upper(parts[to+1])
	s := strings.TrimSpace(unquoteString(v))
	if to >= 3 && parts[to-3] == "-" {
		// a sign outside the string negates the one inside
		if strings.HasPrefix(s, "-") {
			s = s[1:]
		} else {
			s = "-" + strings.TrimPrefix(s, "+")
		}
	}
	switch msg := unitToUnit(s, from, until); {
	case msg == "":
	case msg == minMonths:
		p.use(featIntervalMinMonths, start)
	case msg == wideField:
		p.use(featIntervalWideField, start)
	case from == "DAY" && strings.HasSuffix(msg, "is out of range ("+from+" TO "+until+")"):
		// Before 3.2 the days were read wrapped around (recorded: pyspark 3.1.3 accepts
		// INTERVAL '106751992 04' DAY TO HOUR, 3.2.4 rejects it).
		p.use(featIntervalRange, start)
	default:
		fail(msg)
	}
}

// unitToUnit checks a unit-to-unit interval string: YEAR TO MONTH is [+-]y-m; the day-time
// forms are [+-]d h, d h:m, d h:m:s[.f], h:m, h:m:s[.f], m:s[.f], in range.
func unitToUnit(s, from, to string) string {
	negative := s != "" && s[0] == '-'
	if s != "" && (s[0] == '+' || s[0] == '-') {
		s = s[1:]
	}
	form := from + " TO " + to
	var fields []string
	switch form {
	case "YEAR TO MONTH":
		y, rest := digits(s)
		if y == "" || rest == "" || rest[0] != '-' {
			return "'" + s + "' is not of the form y-m (YEAR TO MONTH)"
		}
		m, rest := digits(rest[1:])
		if m == "" || rest != "" || atoi(m) > 11 {
			return "'" + s + "' is not of the form y-m (YEAR TO MONTH)"
		}
		total := new(big.Int).Mul(big.NewInt(int64(atoi(y))), big.NewInt(12))
		limit := int64(2147483647)
		if negative {
			limit++
		}
		if len(y) > 10 || total.Add(total, big.NewInt(int64(atoi(m)))).Cmp(big.NewInt(limit)) > 0 {
			return "'" + s + "' is out of range (YEAR TO MONTH)"
		}
		if total.Int64() == limit && negative {
			return minMonths
		}
		return ""
	case "DAY TO HOUR":
		fields = []string{" ", ""}
	case "DAY TO MINUTE":
		fields = []string{" ", ":", ""}
	case "DAY TO SECOND":
		fields = []string{" ", ":", ":", "."}
	case "HOUR TO MINUTE":
		fields = []string{":", ""}
	case "HOUR TO SECOND":
		fields = []string{":", ":", "."}
	case "MINUTE TO SECOND":
		fields = []string{":", "."}
	default:
		return from + " TO " + to + " is not an interval form Spark has"
	}
	return dayTime(s, fields, from, form)
}

// dayTime reads numbers separated as seps says ("." ends with an optional fraction) and
// checks the first against the range of unit from.
func dayTime(s string, seps []string, from, form string) string {
	orig := s
	bad := "'" + s + "' is not of the form " + form
	first := ""
	for i, sep := range seps {
		n, rest := digits(s)
		if n == "" {
			return bad
		}
		if i == 0 {
			first = n
		}
		s = rest
		switch {
		case sep == "." && s == "":
		case sep == ".":
			if s[0] != '.' {
				return bad
			}
			if f, r := digits(s[1:]); r != "" || len(f) > 9 {
				return bad
			}
			s = ""
		case sep == "":
			if s != "" {
				return bad
			}
		default:
			if !strings.HasPrefix(s, sep) {
				return bad
			}
			s = strings.TrimLeft(s[len(sep):], " ")
		}
	}
	limit := map[string]int64{"DAY": 106751991, "HOUR": 2562047788, "MINUTE": 153722867280}[from]
	if v, ok := new(big.Int).SetString(first, 10); ok && limit > 0 && v.Cmp(big.NewInt(limit)) > 0 {
		return "'" + orig + "' is out of range (" + form + ")"
	}
	if from != "DAY" && len(first) > 2 {
		return wideField
	}
	return ""
}

// isSignedNumber reports [+-]digits[.digits].
func isSignedNumber(s string) bool {
	if s != "" && (s[0] == '+' || s[0] == '-') {
		s = strings.TrimLeft(s[1:], " \t\n")
	}
	n, rest := digits(s)
	if rest != "" && rest[0] == '.' {
		var f string
		f, rest = digits(rest[1:])
		n += f
	}
	return n != "" && rest == ""
}

// intervalString checks an interval written as one string: ['interval'] ([+-]number unit)+,
// as IntervalUtils.stringToInterval reads it; it returns what is wrong, or "".
func intervalString(s string) string {
	f := strings.Fields(strings.ToLower(strings.TrimSpace(s)))
	if len(f) > 0 && f[0] == "interval" {
		f = f[1:]
	}
	if len(f) == 0 {
		return "it has no value"
	}
	if len(f)%2 != 0 {
		return "a value without its unit"
	}
	var units []string
	for i := 0; i < len(f); i += 2 {
		if !isSignedNumber(f[i]) {
			return "'" + f[i] + "' is not a number"
		}
		if !intervalUnit(f[i+1]) {
			return "'" + f[i+1] + "' is not an interval unit"
		}
		units = append(units, f[i+1])
	}
	if mixed(units) {
		return mixedFields
	}
	return ""
}
