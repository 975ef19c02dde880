package plan

// StripIDs removes Spark expression ids from printed text: "sum(v#12L)" becomes "sum(v)",
// "k#x" becomes "k", "[id=#5]" is left alone because its '#' follows '='. An id is '#'
// followed by digits or Spark's normalised "x", then an optional 'L', after a character
// that can end a name.
func StripIDs(s string) string { return stripIDs(s) }

func stripIDs(s string) string {
	i := indexID(s, 0)
	if i < 0 {
		return s
	}
	b := make([]byte, 0, len(s))
	last := 0
	for i >= 0 {
		end := idEnd(s, i)
		b = append(b, s[last:i]...)
		last = end
		i = indexID(s, end)
	}
	b = append(b, s[last:]...)
	return string(b)
}

// indexID returns the index of the next expression id's '#' at or after from, or -1.
func indexID(s string, from int) int {
	for i := from; i < len(s); i++ {
		if s[i] != '#' || i == 0 {
			continue
		}
		prev := s[i-1]
		if prev == '=' || prev == ' ' || prev == '[' || prev == '(' || prev == ',' {
			continue
		}
		if idEnd(s, i) > i+1 {
			return i
		}
	}
	return -1
}

// idEnd returns the index just after the id starting with '#' at i, or i+1 if none follows.
func idEnd(s string, i int) int {
	j := i + 1
	switch {
	case j < len(s) && s[j] == 'x' && (j+1 == len(s) || !isNameByte(s[j+1]) || s[j+1] == 'L' && (j+2 == len(s) || !isNameByte(s[j+2]))):
		j++
	case j < len(s) && s[j] >= '0' && s[j] <= '9':
		for j < len(s) && s[j] >= '0' && s[j] <= '9' {
			j++
		}
	default:
		return i + 1
	}
	if j < len(s) && s[j] == 'L' && (j+1 == len(s) || !isNameByte(s[j+1])) {
		j++
	}
	if j < len(s) && isNameByte(s[j]) {
		return i + 1 // "#1Lx": not an id
	}
	return j
}

func isNameByte(c byte) bool {
	return c == '_' || c >= '0' && c <= '9' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z'
}
