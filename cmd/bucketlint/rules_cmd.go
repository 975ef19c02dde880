package main

import (
	"context"
	"encoding/json"
	"fmt"
	"text/tabwriter"

	"github.com/bucketlint/bucketlint/rules"
)

// rulesOptions are the flags of `bucketlint rules`.
type rulesOptions struct {
	format string
}

func parseRules(args []string, s *streams) (*rulesOptions, error) {
	opts := &rulesOptions{}
	fs := newFlagSet("rules", "[flags]",
		"List every rule: its ID, name, severity, whether it is on by default, and its title.\n"+
			"'bucketlint explain RULE' prints a rule's page.",
		s, "bucketlint rules", "bucketlint rules --format json")
	fs.StringVar(&opts.format, "format", "text", "output `format`: text or json")
	if err := parseFlags(fs, args); err != nil {
		return nil, err
	}
	if err := checkFormat(opts.format, "text", "json"); err != nil {
		return nil, err
	}
	if fs.NArg() > 0 {
		return nil, usagef("rules takes no arguments; did you mean 'bucketlint explain %s'?", fs.Arg(0))
	}
	return opts, nil
}

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

func runRulesCmd(_ context.Context, args []string, s *streams) error {
	opts, err := parseRules(args, s)
	if err != nil {
		return err
	}
	all := rules.All()
	if opts.format == "json" {
		out := make([]ruleJSON, len(all))
		for i, r := range all {
			out[i] = ruleJSON{ID: r.ID, Name: r.Name, Severity: r.Severity.String(), Default: r.Default, Title: r.Title, Spark: r.Spark, Since: r.Since}
		}
		enc := json.NewEncoder(s.out)
		enc.SetIndent("", "  ")
		return enc.Encode(map[string][]ruleJSON{"rules": out})
	}
	tw := tabwriter.NewWriter(s.out, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "ID\tNAME\tSEVERITY\tDEFAULT\tTITLE")
	for _, r := range all {
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
