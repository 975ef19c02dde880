package main

import (
	"context"

	"github.com/bucketlint/bucketlint/report"
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

func runRulesCmd(_ context.Context, args []string, s *streams) error {
	opts, err := parseRules(args, s)
	if err != nil {
		return err
	}
	if opts.format == "json" {
		return report.WriteRulesJSON(s.out, rules.All())
	}
	return report.WriteRulesText(s.out, rules.All())
}
