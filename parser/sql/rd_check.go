package sql

import (
	"math"
	"math/big"
	"strconv"
	"strings"
)

// The checks Spark's parser makes beyond the grammar (AstBuilder and its literal parsers):
// typed literals must hold a value of their type, numbers must fit their type, an interval
// may not mix year-month with day-time fields, a unit-to-unit interval string must have its
// form, a type must be one Spark knows, a datetime unit must be a keyword. A statement Spark
// rejects for these reasons is rejected here too, with a message naming the value.

// knownType reports the type names Spark's parser accepts (SqlBaseParser.g4 primitiveType
// and the complex types), BOOL included as bucketlint always read it.
func knownType(name string) bool {
	switch name {
	case "BOOLEAN", "BOOL", "TINYINT", "BYTE", "SMALLINT", "SHORT", "INT", "INTEGER", "BIGINT",
		"LONG", "FLOAT", "REAL", "DOUBLE", "DATE", "TIMESTAMP", "TIMESTAMP_NTZ", "TIMESTAMP_LTZ",
		"STRING", "CHARACTER", "CHAR", "VARCHAR", "BINARY", "DECIMAL", "DEC", "NUMERIC", "VOID",
		"INTERVAL", "VARIANT", "TIME", "ARRAY", "STRUCT", "MAP":
		return true
	}
	return false
}

// checkType rejects a type name Spark does not know.
func (p *rd) checkType(t token) {
	if !knownType(upper(t.text)) {
		p.failAt(t.off, "unsupported data type "+strconv.Quote(upper(t.text)))
	}
}

// checkNumber rejects a number literal that does not fit its type: 128Y, 32768S,
// 9223372036854775808L, 1E309, 3.4028235E39F, or a BD decimal of more than 38 digits.
func (p *rd) checkNumber(t token, negative bool) {
	s := strings.ToUpper(t.text)
	fail := func(what string) { p.failAt(t.off, "number "+t.text+" is out of range for "+what) }
	integer := func(bits int, what string) {
		v, ok := new(big.Int).SetString(s[:len(s)-1], 10)
		if !ok {
			return
		}
		if negative {
			v.Neg(v)
		}
		lo := new(big.Int).Neg(new(big.Int).Lsh(big.NewInt(1), uint(bits-1)))
		hi := new(big.Int).Sub(new(big.Int).Neg(lo), big.NewInt(1))
		if v.Cmp(lo) < 0 || v.Cmp(hi) > 0 {
			fail(what)
		}
	}
	switch {
	case strings.HasSuffix(s, "BD"):
		digits := strings.TrimLeft(strings.ReplaceAll(strings.Split(s[:len(s)-2], "E")[0], ".", ""), "0")
		if len(digits) > 38 || strings.Contains(s, "E-") && decimalScale(s[:len(s)-2]) > 38 {
			p.failAt(t.off, "decimal "+t.text+" has more than 38 digits of precision")
		}
	case strings.HasSuffix(s, "Y"):
		integer(8, "TINYINT")
	case strings.HasSuffix(s, "S"):
		integer(16, "SMALLINT")
	case strings.HasSuffix(s, "L"):
		integer(64, "BIGINT")
	case strings.HasSuffix(s, "F"):
		if v, err := strconv.ParseFloat(s[:len(s)-1], 32); err != nil && math.IsInf(v, 0) {
			p.use(featFloatRange, t.off)
		}
		if s[0] == '.' {
			p.use(featFloatFraction, t.off)
		}
	case strings.HasSuffix(s, "D") || strings.Contains(s, "E"):
		if v, err := strconv.ParseFloat(strings.TrimSuffix(s, "D"), 64); err != nil && math.IsInf(v, 0) {
			fail("DOUBLE")
		}
	}
}

// decimalScale is the scale a decimal literal with an exponent has: 1.20E-38 has 40.
func decimalScale(s string) int {
	mant, exp, _ := strings.Cut(s, "E")
	e, _ := strconv.Atoi(exp)
	frac := 0
	if _, f, ok := strings.Cut(mant, "."); ok {
		frac = len(f)
	}
	return frac - e
}

// checkDatetimeUnit rejects a string as the unit of TIMESTAMPADD (DATEADD, DATE_ADD),
// TIMESTAMPDIFF (DATEDIFF, DATE_DIFF) and TIMEDIFF with three arguments: Spark's grammar
// wants the unit as a keyword (from 3.5, and 4.0 for TIMEDIFF).
func (p *rd) checkDatetimeUnit(name *qname, l *argList) {
	if name == nil || len(name.Parts) != 1 || len(l.Args) != 3 {
		return
	}
	switch upper(name.Parts[0]) {
	case "TIMESTAMPADD", "DATEADD", "DATE_ADD", "TIMESTAMPDIFF", "DATEDIFF", "DATE_DIFF", "TIMEDIFF":
	default:
		return
	}
	a := l.Args[0]
	if u := soleUnary(a); u != nil && u.Primary.Str != nil {
		// Before the release that made the name a form of the grammar the call was read as
		// any other function's: TIMEDIFF in 4.0, the others in 3.5.
		if upper(name.Parts[0]) == "TIMEDIFF" {
			p.use(featTimediffUnitString, a.Pos.Offset)
		} else {
			p.use(featUnitString, a.Pos.Offset)
		}
	}
}

// soleUnary returns the operand an expression consists of, or nil.
func soleUnary(e *expr) *unary {
	if e == nil || len(e.Or) != 1 || len(e.Or[0].And) != 1 {
		return nil
	}
	c := e.Or[0].And[0]
	if c.Not || c.RHS != nil || len(c.Left.Rest) != 0 {
		return nil
	}
	return c.Left.Left
}

// checkTyped rejects a typed literal whose string is not a value of its type.
func (p *rd) checkTyped(typ, str token) {
	v := unquoteString(str.text)
	if specialDatetime(v) {
		return
	}
	ok := true
	switch upper(typ.text) {
	case "DATE":
		ok = validDate(v)
	case "TIMESTAMP", "TIMESTAMP_NTZ", "TIMESTAMP_LTZ":
		ok = validTimestamp(v)
	case "X":
		ok = validHex(v)
	case "INTERVAL":
		p.intervalText(v, str.off, func(msg string) { p.failAt(str.off, "invalid INTERVAL literal "+str.text+": "+msg) })
		return
	}
	if !ok && wrapped(v) != v && (upper(typ.text) == "DATE" && validDate(wrapped(v)) || upper(typ.text) != "DATE" && validTimestamp(wrapped(v))) {
		// Before 3.2 a field of more than 32 bits was read wrapped around (recorded:
		// pyspark 3.1.3 accepts DATE '2021-4294967297-11', 3.2.4 rejects it).
		p.use(featDatetimeOverflow, str.off)
		return
	}
	if !ok {
		p.failAt(str.off, "invalid "+upper(typ.text)+" literal "+str.text)
	}
}

// wrapped returns s with each number of ten digits or more replaced by its low 32 bits, when
// they are a positive int: how Spark before 3.2 read the fields of a DATE or TIMESTAMP.
func wrapped(s string) string {
	var b strings.Builder
	for i := 0; i < len(s); {
		j := i
		for j < len(s) && isDigit(s[j]) {
			j++
		}
		if j == i {
			b.WriteByte(s[i])
			i++
			continue
		}
		n := s[i:j]
		if v, ok := new(big.Int).SetString(n, 10); ok && j-i >= 10 {
			low := new(big.Int).And(v, big.NewInt(0xffffffff)).Int64()
			if low <= math.MaxInt32 {
				n = strconv.FormatInt(low, 10)
			}
		}
		b.WriteString(n)
		i = j
	}
	return b.String()
}

// specialDatetime reports the special values Spark reads in DATE and TIMESTAMP literals:
// epoch, now, today, yesterday, tomorrow (with an optional zone).
func specialDatetime(s string) bool {
	w, _, _ := strings.Cut(strings.ToLower(strings.TrimSpace(s)), " ")
	switch w {
	case "epoch", "now", "today", "yesterday", "tomorrow":
		return true
	}
	return false
}

func validHex(s string) bool {
	for i := 0; i < len(s); i++ {
		if !strings.ContainsRune("0123456789abcdefABCDEF", rune(s[i])) {
			return false
		}
	}
	return true
}

// validDate follows Spark's stringToDate: [+-]yyyy[-m[m][-d[d]]], then nothing or a blank
// or T and anything; the year has 4 to 7 digits.
func validDate(s string) bool {
	s = strings.TrimSpace(s)
	_, ok := datePart(s)
	return ok
}

// datePart reads the date at the start of s and returns what follows it: nothing, or a
// blank or T and anything after a full year-month-day.
func datePart(s string) (string, bool) {
	rest, ok, full := dateFields(s)
	if !ok || rest == "" {
		return "", ok
	}
	return rest, full && (rest[0] == ' ' || rest[0] == 'T')
}

// dateFields reads [+-]yyyy[-m[m][-d[d]]] and reports whether the day was there.
func dateFields(s string) (rest string, ok, full bool) {
	rest, ok = dateFieldsOld(s)
	if !ok {
		return rest, false, false
	}
	return rest, true, strings.Count(s[:len(s)-len(rest)], "-") >= 2
}

func dateFieldsOld(s string) (string, bool) {
	if s != "" && (s[0] == '+' || s[0] == '-') {
		s = s[1:]
	}
	y, s := digits(s)
	if len(y) < 4 || len(y) > 7 {
		return s, false
	}
	if s == "" || s[0] != '-' {
		return s, true
	}
	m, s := digits(s[1:])
	if len(m) < 1 || len(m) > 2 || atoi(m) < 1 || atoi(m) > 12 {
		return s, false
	}
	if s == "" || s[0] != '-' {
		return s, true
	}
	d, s := digits(s[1:])
	if len(d) < 1 || len(d) > 2 || atoi(d) < 1 || atoi(d) > daysIn(atoi(m), atoi(y)) {
		return s, false
	}
	return s, true
}

func daysIn(m, y int) int {
	switch m {
	case 2:
		if y%4 == 0 && (y%100 != 0 || y%400 == 0) {
			return 29
		}
		return 28
	case 4, 6, 9, 11:
		return 30
	}
	return 31
}

// validTimestamp follows Spark's stringToTimestamp: a date, then [ |T]h[h]:m[m][:s[s]
// [.fraction]] and an optional zone; or a time alone.
func validTimestamp(s string) bool {
	s = strings.TrimSpace(s)
	if strings.HasPrefix(s, "T") || strings.Contains(s, ":") && !strings.Contains(s, "-") {
		return validTime(strings.TrimPrefix(s, "T"))
	}
	rest, ok := datePart(s)
	if !ok {
		return false
	}
	if rest == "" {
		return true
	}
	return validTime(strings.TrimLeft(rest[1:], " "))
}

// validTime reads h[h]:m[m][:s[s][.f…]] and an optional zone.
func validTime(s string) bool {
	if s == "" {
		return true
	}
	h, s := digits(s)
	if len(h) < 1 || len(h) > 2 || atoi(h) > 23 || s == "" || s[0] != ':' {
		return len(h) > 0 && s == "" && atoi(h) <= 23
	}
	m, s := digits(s[1:])
	if len(m) < 1 || len(m) > 2 || atoi(m) > 59 {
		return false
	}
	if s != "" && s[0] == ':' {
		var sec string
		sec, s = digits(s[1:])
		if len(sec) < 1 || len(sec) > 2 || atoi(sec) > 59 {
			return false
		}
		if s != "" && s[0] == '.' {
			_, s = digits(s[1:])
		}
	}
	return validZone(strings.TrimSpace(s))
}

// validZone accepts no zone, Z, ±hh[:mm], or a name (UTC, GMT+1, Region/City).
func validZone(s string) bool {
	if s == "" || s == "Z" {
		return true
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		if !isIdentStart(c) && !isDigit(c) && strings.IndexByte("+-:/", c) < 0 {
			return false
		}
	}
	return true
}

// digits splits s after its leading digits.
func digits(s string) (string, string) {
	i := 0
	for i < len(s) && isDigit(s[i]) {
		i++
	}
	return s[:i], s[i:]
}

// atoi is strconv.Atoi that saturates instead of failing.
func atoi(s string) int {
	v, err := strconv.Atoi(s)
	if err != nil {
		return math.MaxInt32
	}
	return v
}
