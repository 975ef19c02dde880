package hash

import "strings"

// BucketOfLiteral returns the bucket that a row whose single bucket column, of Spark SQL type
// typ, equals the SQL literal lit falls into among n buckets: what Spark's bucket pruning
// (FileSourceStrategy.getExpressionBuckets) computes for `col = lit` and each `col IN (…)`
// value. lit is written as in SQL: 42, -7L, 'SAV-100042', DATE '2024-01-31', TIMESTAMP
// '2024-01-31 12:00:00', 12.50, true, NULL. It returns false when the type or literal cannot
// be read, so that callers assume every bucket is selected rather than guess.
func BucketOfLiteral(typ, lit string, n int) (int, bool) {
	if n < 1 {
		return 0, false
	}
	t, err := ParseType(typ)
	if err != nil {
		return 0, false
	}
	text, isNull, ok := literalText(lit)
	if !ok {
		return 0, false
	}
	v := Null(t)
	if !isNull {
		if v, err = ParseValue(t, text); err != nil {
			return 0, false
		}
	}
	return Bucket(Murmur3([]Value{v}), n), true
}

// literalText strips a SQL literal to the text ParseValue reads: quotes and typed-literal
// prefixes (DATE, TIMESTAMP, TIMESTAMP_NTZ, X for binary stays), and the L, S, Y, BD suffixes
// of numeric literals. A string literal must be quoted: a bare word is a column, not a value.
func literalText(lit string) (text string, isNull, ok bool) {
	s := strings.TrimSpace(lit)
	if strings.EqualFold(s, "null") {
		return "", true, true
	}
	up := strings.ToUpper(s)
	for _, p := range []string{"TIMESTAMP_NTZ ", "TIMESTAMP_LTZ ", "TIMESTAMP ", "DATE "} {
		if strings.HasPrefix(up, p) {
			s = strings.TrimSpace(s[len(p):])
			break
		}
	}
	if len(s) >= 2 && (s[0] == '\'' || s[0] == '"') {
		q := s[0]
		if s[len(s)-1] != q {
			return "", false, false
		}
		body := s[1 : len(s)-1]
		return strings.ReplaceAll(body, string([]byte{q, q}), string(q)), false, true
	}
	if strings.HasPrefix(up, "X'") {
		return s, false, true
	}
	for _, suf := range []string{"BD", "L", "S", "Y", "D", "F"} {
		if strings.HasSuffix(up, suf) && len(s) > len(suf) && (s[len(s)-len(suf)-1] >= '0' && s[len(s)-len(suf)-1] <= '9' || s[len(s)-len(suf)-1] == '.') {
			return s[:len(s)-len(suf)], false, true
		}
	}
	if strings.EqualFold(s, "true") || strings.EqualFold(s, "false") || s != "" && strings.ContainsRune("+-.0123456789", rune(s[0])) {
		return s, false, true
	}
	return "", false, false
}
