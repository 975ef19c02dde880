package rules

// UnusedSuppressionID is the rule of ignore comments that suppressed nothing.
const UnusedSuppressionID = "BL902"

func bl902() *Rule {
	return &Rule{
		ID:    UnusedSuppressionID,
		Name:  "unused-suppression",
		Title: "an ignore comment that suppressed nothing",
		Doc: "An inline `bucketlint:ignore RULE reason` comment (`--` in SQL, `#` in Python, `//` in Scala)\n" +
			"accepts one finding of RULE on the next line. When no such finding is there — the problem was\n" +
			"fixed, the code moved, or the ID is mistyped — the comment is stale and would silently\n" +
			"swallow a future finding. A comment without a reason is reported too: the reason is required.\n\n" +
			"The driver emits these diagnostics after filtering; the rule's Run does nothing. Delete the\n" +
			"comment, or fix its rule ID." + suppressDoc("BL902"),
		Bad:      "-- bucketlint:ignore BL301 counts differ on purpose\nSELECT * FROM a JOIN b ON a.k = b.k;  -- a and b both have 16 buckets now",
		Good:     "SELECT * FROM a JOIN b ON a.k = b.k;",
		Spark:    "any",
		Since:    "0.1.0",
		Severity: Warning,
		Default:  true,
		Run:      noRun,
	}
}
