package sql

import (
	"strconv"
	"strings"
)

// weightOf reads the weight a statement's comments give it: "-- weight: N" or "weight = N"
// in a line or block comment (case-insensitive), N a positive number. It is 0 when none is
// written; the first one counts.
func weightOf(raw string) float64 {
	if !strings.Contains(raw, "--") && !strings.Contains(raw, "/*") {
		return 0 // no comment
	}
	for i := 0; i < len(raw); {
		c := raw[i]
		switch {
		case c == '\'' || c == '"' || c == '`' || isDollarQuote(raw, i):
			i = skipQuoted(raw, i)
		case c == '-' && i+1 < len(raw) && raw[i+1] == '-':
			j := skipLine(raw, i)
			if w := weightIn(raw[i+2 : j]); w > 0 {
				return w
			}
			i = j
		case c == '/' && i+1 < len(raw) && raw[i+1] == '*':
			j := skipBlock(raw, i)
			if w := weightIn(raw[i+2 : j]); w > 0 {
				return w
			}
			i = j
		default:
			i++
		}
	}
	return 0
}

// weightIn reads "weight: N" or "weight = N" at the start of a comment's text.
func weightIn(comment string) float64 {
	s := strings.TrimLeft(comment, " \t")
	if len(s) < 6 || !strings.EqualFold(s[:6], "weight") {
		return 0
	}
	s = strings.TrimLeft(s[6:], " \t")
	if s == "" || s[0] != ':' && s[0] != '=' {
		return 0
	}
	s = strings.TrimLeft(s[1:], " \t")
	end := 0
	for end < len(s) && (s[end] == '.' || '0' <= s[end] && s[end] <= '9') {
		end++
	}
	w, err := strconv.ParseFloat(s[:end], 64)
	if err != nil || w <= 0 {
		return 0
	}
	return w
}
