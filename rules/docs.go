package rules

import (
	"fmt"
	"io"
	"strings"
)

// WriteDocs writes the rule catalogue as Markdown: the summary table, then one section per
// rule with its documentation and examples. docs/rules.md is its output for All().
func WriteDocs(w io.Writer, rules []*Rule) error {
	var b strings.Builder
	b.WriteString("# bucketlint rules\n\n")
	b.WriteString("<!-- Generated from the rules package (rules.WriteDocs); do not edit. Regenerate with\n")
	b.WriteString("     `go test ./rules -run TestRulesDoc -update`. -->\n\n")
	b.WriteString("Every rule has a stable ID and name; `bucketlint explain ID` prints its page. Categories:\n")
	b.WriteString("BL1xx tables and DDL, BL2xx writes and reads in code, BL3xx joins and aggregations,\n")
	b.WriteString("BL4xx configuration, BL9xx bucketlint's own messages.\n\n")
	b.WriteString("| ID | name | severity | default | Spark | title |\n| --- | --- | --- | --- | --- | --- |\n")
	for _, r := range rules {
		def := "on"
		if !r.Default {
			def = "off"
		}
		fmt.Fprintf(&b, "| [%s](#%s) | %s | %s | %s | %s | %s |\n", r.ID, anchor(r), r.Name, r.Severity, def, r.Spark, r.Title)
	}
	for _, r := range rules {
		b.WriteString("\n")
		writeRule(&b, r)
	}
	_, err := io.WriteString(w, b.String())
	return err
}

// WriteDoc writes one rule's page as Markdown, as `bucketlint explain ID` shows it.
func WriteDoc(w io.Writer, r *Rule) error {
	var b strings.Builder
	writeRule(&b, r)
	_, err := io.WriteString(w, b.String())
	return err
}

func writeRule(b *strings.Builder, r *Rule) {
	fmt.Fprintf(b, "## %s %s\n\n", r.ID, r.Name)
	fmt.Fprintf(b, "%s.\n\n", capitalise(r.Title))
	def := "yes"
	if !r.Default {
		def = "no (enable it in .bucketlint.yaml)"
	}
	fmt.Fprintf(b, "Severity: %s. On by default: %s. Spark: %s. Since: bucketlint %s.\n\n", r.Severity, def, r.Spark, r.Since)
	b.WriteString(strings.TrimSpace(r.Doc))
	b.WriteString("\n\nBad:\n\n```\n")
	b.WriteString(strings.TrimRight(r.Bad, "\n"))
	b.WriteString("\n```\n\nGood:\n\n```\n")
	b.WriteString(strings.TrimRight(r.Good, "\n"))
	b.WriteString("\n```\n")
}

func anchor(r *Rule) string { return strings.ToLower(r.ID + "-" + r.Name) }

// capitalise upper-cases the first letter of a title, unless its first word is an
// identifier in camel case ("sortBy"), which keeps its spelling.
func capitalise(s string) string {
	word, _, _ := strings.Cut(s, " ")
	if s == "" || strings.ToLower(word) != word {
		return s
	}
	return strings.ToUpper(s[:1]) + s[1:]
}

// suppressDoc is the paragraph every rule's Doc ends with: how to silence one finding.
func suppressDoc(id string) string {
	return "\n\nTo accept one finding, put a comment with a reason on the line before it: `-- bucketlint:ignore " +
		id + " reason` in SQL, `# bucketlint:ignore " + id + " reason` in Python, `// bucketlint:ignore " + id +
		" reason` in Scala; or disable the rule with `rules: [all, -" + id + "]` in .bucketlint.yaml."
}
