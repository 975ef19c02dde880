// Package report renders bucketlint's results for the places users read them: terminals, JSON
// for tools, Mermaid and Graphviz drawings for pull requests and documentation. It writes
// check's findings in every --format, parsed plans, simulate's predictions and their
// comparison with a real explain output, the tables catalogue, and verify's results. It reads
// the plan model and the results of simulate and engine/verify, and never parses input.
package report
