package rules

import (
	"github.com/bucketlint/bucketlint/plan"
	"github.com/bucketlint/bucketlint/simulate"
)

// A Rule checks one bucketing property of a project. Its documentation is data: the driver
// prints it for `bucketlint explain ID`, generates docs/rules.md from it and puts it in SARIF.
type Rule struct {
	ID       string // "BL301": category digit first; never reused
	Name     string // "bucket-count-mismatch": config, output, docs anchor
	Title    string // one line, lowercase, no period
	Doc      string // why it matters in Spark and what to do (Markdown)
	Bad      string // input that triggers the rule
	Good     string // the same input, fixed
	Spark    string // Spark versions it applies to, e.g. "3.0–4.x"
	Since    string // bucketlint version that added it
	Severity Severity
	Default  bool // on unless the configuration says otherwise
	Run      func(*Pass) error
}

// A Pass is what one rule sees of one project.
type Pass struct {
	Project *plan.Project
	Options simulate.Options
	// Simulate predicts the physical plan of a query; the driver memoises it across rules.
	Simulate func(*plan.Query) (*simulate.Result, error)
	// Report records a finding. The driver fills in the rule's ID, name and severity when the
	// rule leaves them empty.
	Report func(Diagnostic)
}
