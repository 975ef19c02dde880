package rules

import (
	"github.com/bucketlint/bucketlint/plan"
	"github.com/bucketlint/bucketlint/simulate"
	"github.com/bucketlint/bucketlint/workload"
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

// A Pass is what one rule sees of one workload.
type Pass struct {
	// Project is the project as the workload resolved it: its Tables are the catalogue every
	// script shares (Spark's defaults applied), its Conflicts every disagreement of sources.
	Project *plan.Project
	// Workload is the resolved workload: sessions, the catalogue each sees, options in force.
	Workload *workload.Workload
	// Options are the Spark version and the settings that apply to every file of the project
	// (the configuration, spark-defaults.conf, spark-submit --conf); OptionsAt adds the
	// settings of one file's session.
	Options simulate.Options
	// Report records a finding. The driver fills in the rule's ID, name and severity when the
	// rule leaves them empty.
	Report func(Diagnostic)
	// Thresholds are the rules' limits, defaults filled in by the driver.
	Thresholds Thresholds
	// Source returns the text of an input file, nil when it cannot be read; rules use it to
	// find the exact span an edit replaces (the 64 of INTO 64 BUCKETS). Nil means no source.
	Source func(file string) []byte
	// Unread are the positions of statements the parsers could not read (Driver.Unread).
	Unread []plan.Pos
}

// afterUnread reports whether a statement of pos's file that could not be read comes before
// pos: the session's catalogue there is not known.
func (p *Pass) afterUnread(pos plan.Pos) bool {
	for _, u := range p.Unread {
		if u.File == pos.File && u.Before(pos) {
			return true
		}
	}
	return false
}

// Thresholds are the rules' tunable limits (the `thresholds` section of .bucketlint.yaml).
// A zero field takes the default named on it; WithDefaults fills them in.
type Thresholds struct {
	// TargetBucketBytes is the data one bucket file should hold (default 256 MiB), the size
	// BL106 recommends counts for.
	TargetBucketBytes int64
	// MinBucketBytes and MaxBucketBytes bound a healthy bucket (defaults 128 MiB and 1 GiB):
	// BL106 fires outside this range, BL309 above MaxBucketBytes.
	MinBucketBytes int64
	MaxBucketBytes int64
	// ClusterCores is the number of executor cores, 0 when unknown (default). BL106 and BL309
	// then also want at least that many buckets for a large table.
	ClusterCores int
	// BroadcastBytes is the size under which BL308 calls a join side small enough to
	// broadcast; 0 (default) means spark.sql.autoBroadcastJoinThreshold, or 10 MiB when that
	// is disabled.
	BroadcastBytes int64
}

// WithDefaults returns t with every zero field set to its default.
func (t Thresholds) WithDefaults() Thresholds {
	if t.TargetBucketBytes <= 0 {
		t.TargetBucketBytes = 256 << 20
	}
	if t.MinBucketBytes <= 0 {
		t.MinBucketBytes = 128 << 20
	}
	if t.MaxBucketBytes <= 0 {
		t.MaxBucketBytes = 1 << 30
	}
	return t
}

// OptionsAt returns the options in force at a position of an input: Options with the
// settings that file's own session makes before it (spark.conf.set earlier in the same code
// file, SET earlier in the same SQL file).
func (p *Pass) OptionsAt(pos plan.Pos) simulate.Options {
	if p.Workload == nil {
		return p.Options
	}
	return p.Workload.OptionsAt(pos)
}

// tables returns the catalogue every script shares.
func (p *Pass) tables() map[string]*plan.Table { return p.Project.Tables }

// tablesAt returns the tables the session of pos sees there, as Spark's session catalogue
// holds them at that statement: a table dropped and created again under its name is the
// later definition from that point on.
func (p *Pass) tablesAt(pos plan.Pos) map[string]*plan.Table {
	if p.Workload == nil {
		return p.tables()
	}
	return p.Workload.TablesAt(pos)
}
