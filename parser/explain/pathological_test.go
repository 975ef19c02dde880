package explain

import (
	"strings"
	"testing"
	"time"
)

// deepTree returns a tree of n lines, each one level deeper than the one before.
func deepTree(n int) string {
	var b strings.Builder
	b.WriteString("== Physical Plan ==\nA\n")
	for i := range n {
		b.WriteString(strings.Repeat(" ", 3*i) + "+- B\n")
	}
	return b.String()
}

// TestPathologicalInputs parses large adversarial inputs (about 256 KiB each) that would take
// minutes if any scan were quadratic in the line or block length; each must finish in
// seconds, even on a loaded machine.
func TestPathologicalInputs(t *testing.T) {
	const n = 1 << 18
	cases := map[string]string{
		"attribute ids":        "== Physical Plan ==\nProject [" + strings.Repeat("a)#1", n/4) + "]\n",
		"open parentheses":     "== Physical Plan ==\nFilter " + strings.Repeat(" (", n/2) + "\n",
		"outline ids":          "== Physical Plan ==\n" + strings.Repeat(" (1)", n/4) + "\n",
		"unclosed quotes":      "== Physical Plan ==\nProject [" + strings.Repeat("'a, \"", n/5) + "]\n",
		"deep tree":            deepTree(400),
		"reused exchanges":     "== Physical Plan ==\n" + strings.Repeat("ReusedExchange [a], ", n/20) + "\n",
		"headers":              strings.Repeat("== Physical Plan ==\n", n/20),
		"detail blocks":        "== Physical Plan ==\nA (1)\n\n" + strings.Repeat("(1) A\nOutput [1]: [a#1]\n", n/20),
		"continued value":      "== Physical Plan ==\nA (1)\n\n(1) A\nArguments: x\n" + strings.Repeat("y\n", n/2),
		"scan metadata":        "== Physical Plan ==\nFileScan parquet t[a#1] " + strings.Repeat("A: x, ", n/6) + "\n",
		"bare ids":             "== Physical Plan ==\nProject [" + strings.Repeat("#", n) + "]\n",
		"continuation bars":    "== Physical Plan ==\nA\n" + strings.Repeat(": ", n/2) + "+- B\n",
		"sub-headers":          "== Physical Plan ==\nAdaptiveSparkPlan isFinalPlan=true\n" + strings.Repeat("+- == Final Plan ==\n   A\n", n/24),
		"logical section":      "== Parsed Logical Plan ==\n" + strings.Repeat("'Project [*]\n", n/13),
		"codegen java":         "Found 1 WholeStageCodegen subtrees.\n== Subtree 1 / 1 (x) ==\n*(1) A\nGenerated code:\n" + strings.Repeat("/* 001 */ x\n", n/12),
		"formatted subqueries": "== Physical Plan ==\nA (1)\n\n" + strings.Repeat("Subquery:1 Hosting operator id = 1\nB (2)\n\n", n/40),
	}
	for name, in := range cases {
		t.Run(strings.ReplaceAll(name, " ", "_"), func(t *testing.T) {
			t.Parallel()
			start := time.Now()
			_, _ = Parse("in", []byte(in))
			if d := time.Since(start); d > 5*time.Second {
				t.Errorf("took %v", d)
			}
		})
	}
}
