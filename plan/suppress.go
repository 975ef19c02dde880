package plan

// IgnoreWord starts an inline suppression after a comment marker: `-- bucketlint:ignore
// BL301 reason` (SQL), `# bucketlint:ignore BL201 reason` (Python, shell, YAML), `//
// bucketlint:ignore BL301 reason` (Scala, Java). An `until=2026-12-31` word among the
// reason's ends the suppression after that day.
const IgnoreWord = "bucketlint:ignore"

// A Suppression is one inline `bucketlint:ignore RULES reason [until=DATE]` comment. On a line
// of its own it covers the next line, or in a SQL file the whole statement that starts
// there; after code it covers its own line.
type Suppression struct {
	// Pos is where the word bucketlint:ignore starts.
	Pos Pos
	// Rules are the rule IDs or names as written, in order.
	Rules []string
	// Reason is why the finding is accepted; empty only in a malformed one (Problem).
	Reason string
	// Until is the last day it suppresses ("2026-12-31"), empty for no end.
	Until string
	// Line and Last are the first and the last line whose findings it covers.
	Line, Last int
	// Problem says what is wrong with a malformed comment (no rule, no reason, a date that
	// cannot be read); such a comment suppresses nothing. Empty when it is well formed.
	Problem string
}
