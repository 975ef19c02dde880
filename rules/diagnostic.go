package rules

import "github.com/bucketlint/bucketlint/plan"

// A Severity is how serious a finding is. The zero value is invalid.
type Severity int

// Severities, in increasing order.
const (
	Info Severity = iota + 1
	Warning
	Error
)

// String returns "info", "warning" or "error".
func (s Severity) String() string {
	switch s {
	case Info:
		return "info"
	case Warning:
		return "warning"
	case Error:
		return "error"
	}
	return "invalid"
}

// ParseSeverity reads "info", "warning" or "error".
func ParseSeverity(s string) (Severity, bool) {
	switch s {
	case "info":
		return Info, true
	case "warning":
		return Warning, true
	case "error":
		return Error, true
	}
	return 0, false
}

// A Diagnostic is one finding: a rule's message at a position, with related positions and an
// optional fix. It matches the "findings" entries of `check --format json` (DESIGN.md §4).
type Diagnostic struct {
	// Rule is the rule's ID ("BL301"); Name its name ("bucket-count-mismatch").
	Rule string
	Name string
	// Severity is the rule's severity after configuration overrides.
	Severity Severity
	// Span is where the problem is: the .save( call, the CLUSTERED BY clause, the Exchange line.
	Span    plan.Span
	Message string
	// Related points at the other places involved: the other table's DDL, the other join side.
	Related []Related
	// Fix is the suggested change, nil when there is none.
	Fix *Fix
	// Measured is what the finding's join or aggregation cost in the runs of Spark event logs
	// (check --evidence), nil when no log was read or no run matched.
	Measured *Measured
	// Grouping is, for a finding on an aggregation or a window that shuffles a table, that
	// table and the grouping columns, which check --evidence matches with the aggregations of
	// real runs; nil otherwise (a finding on a join is matched through its join site).
	Grouping *Grouping
}

// Explanation reports whether d explains rather than asks for a change: an info finding with
// no fix (a shuffle no layout removes, a scan that is a symptom of another finding). check
// leaves explanations out unless asked (check --explain); simulate and advise keep explaining
// every shuffle.
func (d *Diagnostic) Explanation() bool { return d.Severity == Info && d.Fix == nil }

// A Grouping is an aggregation (GROUP BY, groupBy, dropDuplicates) or a window (PARTITION BY)
// over one table, by columns of that table.
type Grouping struct {
	// What is "aggregate" or "window".
	What string
	// Table is the table's name; Columns are the grouping columns.
	Table   string
	Columns []string
}

// Measured is what the shuffles of a finding's join or aggregation cost in real runs, summed
// over the runs of the event logs read that ran it (matched by tables and key columns, and
// what the shuffle fed).
type Measured struct {
	// What is what shuffled: "join" ("" means join too), "aggregation" or "window".
	What string
	// Bytes and Records are the shuffle bytes and records written; TimeNs the shuffle write
	// time in nanoseconds.
	Bytes, Records, TimeNs int64
	// Runs counts the SQL executions that ran the join, Apps the applications they were in.
	Runs, Apps int
}

// A Related position explains a diagnostic: "customers is bucketed into 16 buckets here".
type Related struct {
	Span    plan.Span
	Message string
}

// A Fix is a suggested change. Description is a verb phrase ("Rebucket orders INTO 16
// BUCKETS"). Edits, when present, are safe to apply mechanically; a fix without edits carries
// advice as code in Description.
type Fix struct {
	Description string
	Edits       []Edit
}

// An Edit replaces the text of Span with Text.
type Edit struct {
	Span plan.Span
	Text string
}
