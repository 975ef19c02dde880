package rules

import "github.com/bucketlint/bucketlint/plan"

// ParseErrorID is the rule of inputs that could not be parsed, whose findings InputError
// makes from the parsers' errors.
const ParseErrorID = "BL901"

func bl901() *Rule {
	return &Rule{
		ID:    ParseErrorID,
		Name:  "parse-error",
		Title: "an input that could not be parsed",
		Doc: "bucketlint reports every input it cannot read — a SQL statement outside the supported\n" +
			"grammar, a truncated explain output, a notebook that is not valid JSON — at the position of\n" +
			"the problem, and keeps checking the other statements and files. The `check` command exits\n" +
			"with code 3 when there is at least one (unless a usage error, code 2, applies).\n\n" +
			"The driver emits these diagnostics from the parsers' errors; the rule's Run does nothing. A\n" +
			"statement that could not be parsed is missing from the model, so other rules may miss\n" +
			"findings in it: fix the input, or exclude the file in .bucketlint.yaml (`exclude:`)." + suppressDoc("BL901"),
		Bad:      "CREATE TABLE t (a INT) USING parquet CLUSTERED BY (a) INTO four BUCKETS;",
		Good:     "CREATE TABLE t (a INT) USING parquet CLUSTERED BY (a) INTO 4 BUCKETS;",
		Spark:    "any",
		Since:    "0.1.0",
		Severity: Error,
		Default:  true,
		Run:      noRun,
	}
}

// noRun is the Run of rules whose diagnostics the driver emits itself.
func noRun(*Pass) error { return nil }

// InputError is the BL901 finding of an input error at pos, when the catalogue has BL901 and
// pos names a file: an error about no file (a path that does not exist) is listed among the
// errors only. An error without a line is placed at the start of its file.
func InputError(catalogue []*Rule, pos plan.Pos, msg string) (Diagnostic, bool) {
	r := ByID(catalogue, ParseErrorID)
	if r == nil || pos.File == "" {
		return Diagnostic{}, false
	}
	if pos.Line <= 0 {
		pos.Line, pos.Col = 1, 1
	}
	return Diagnostic{Rule: r.ID, Name: r.Name, Severity: r.Severity, Span: plan.Span{Start: pos}, Message: msg}, true
}
