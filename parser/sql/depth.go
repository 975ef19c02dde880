package sql

import (
	"strconv"
	"strings"
)

// maxNesting bounds how deeply a statement may nest brackets, CASE … END and lambdas before
// it is parsed. The grammar engine recurses for every level, and a statement nested tens of
// thousands deep would exhaust the stack, which no recover catches; Spark's own parser gives
// up on such input too.
const maxNesting = 256

// tooDeep finds where s nests deeper than maxNesting, outside quotes and templates: open
// brackets, open CASEs and the lambda arrows of each bracket level (an arrow's body nests
// until the next comma or closing bracket) count one level each. It returns the offset and a
// message, or -1.
func tooDeep(s string) (int, string) {
	arrows := []int{0} // lambda arrows per open bracket level, the statement's own first
	sum, cases := 0, 0
	for i := 0; i < len(s); {
		if j, ok := skipOpaque(s, i); ok {
			i = j
			continue
		}
		c := s[i]
		switch {
		case c == '(' || c == '[':
			arrows = append(arrows, 0)
		case (c == ')' || c == ']') && len(arrows) > 1:
			sum -= arrows[len(arrows)-1]
			arrows = arrows[:len(arrows)-1]
		case c == ',':
			sum -= arrows[len(arrows)-1]
			arrows[len(arrows)-1] = 0
		case c == '-' && i+1 < len(s) && s[i+1] == '>':
			arrows[len(arrows)-1]++
			sum++
		case isIdentStart(c):
			j := i
			for j < len(s) && (isIdentStart(s[j]) || '0' <= s[j] && s[j] <= '9') {
				j++
			}
			switch w := s[i:j]; {
			case strings.EqualFold(w, "case"):
				cases++
			case strings.EqualFold(w, "end") && cases > 0:
				cases--
			}
			if len(arrows)-1+cases+sum > maxNesting {
				return i, "nesting deeper than " + strconv.Itoa(maxNesting) + " levels (brackets, CASE, lambdas) is not read"
			}
			i = j
			continue
		}
		if len(arrows)-1+cases+sum > maxNesting {
			return i, "nesting deeper than " + strconv.Itoa(maxNesting) + " levels (brackets, CASE, lambdas) is not read"
		}
		i++
	}
	return -1, ""
}
