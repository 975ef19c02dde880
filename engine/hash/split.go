package hash

// SplitTopLevel splits a comma-separated list of Spark types or column definitions
// ("int,decimal(10,2)", "k bigint, m map<string,int>") at the commas outside parentheses and
// angle brackets. The parts keep their spaces.
func SplitTopLevel(s string) []string {
	var parts []string
	depth, start := 0, 0
	for i := 0; i < len(s); i++ {
		switch s[i] {
		case '(', '<':
			depth++
		case ')', '>':
			depth--
		case ',':
			if depth == 0 {
				parts = append(parts, s[start:i])
				start = i + 1
			}
		}
	}
	return append(parts, s[start:])
}
