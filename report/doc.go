// Package report renders bucketlint's results for the places users read them: terminals, JSON
// for tools, Mermaid and Graphviz drawings for pull requests and documentation. It reads the
// plan model and never parses input.
package report
