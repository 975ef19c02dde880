package report

import (
	"encoding/json"
	"fmt"
	"io"
	"text/tabwriter"

	"github.com/bucketlint/bucketlint/rules"
)

// ruleJSON is one entry of `rules --format json`.
type ruleJSON struct {
	ID       string `json:"id"`
	Name     string `json:"name"`
	Severity string `json:"severity"`
	Default  bool   `json:"default"`
	Title    string `json:"title"`
	Spark    string `json:"spark"`
	Since    string `json:"since"`
}

// WriteRulesJSON writes the rule catalogue as `rules --format json`: under "rules", each
// rule's ID, name, severity, default, title, Spark versions and the release that added it.
func WriteRulesJSON(w io.Writer, catalogue []*rules.Rule) error {
	out := make([]ruleJSON, len(catalogue))
	for i, r := range catalogue {
		out[i] = ruleJSON{ID: r.ID, Name: r.Name, Severity: r.Severity.String(), Default: r.Default, Title: r.Title, Spark: r.Spark, Since: r.Since}
	}
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(map[string][]ruleJSON{"rules": out})
}

// WriteRulesText writes the rule catalogue as a table: ID, name, severity, on or off by
// default, title.
func WriteRulesText(w io.Writer, catalogue []*rules.Rule) error {
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "ID\tNAME\tSEVERITY\tDEFAULT\tTITLE")
	for _, r := range catalogue {
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\n", r.ID, r.Name, r.Severity, onOff(r.Default), r.Title)
	}
	return tw.Flush()
}

func onOff(b bool) string {
	if b {
		return "on"
	}
	return "off"
}
