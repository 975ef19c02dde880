package main

import (
	"context"
	"strings"

	"github.com/bucketlint/bucketlint/rules"
)

func parseExplain(args []string, s *streams) (string, error) {
	fs := newFlagSet("explain", "RULE",
		"Print a rule's documentation: what it finds, why it matters in Spark, a bad and a good\n"+
			"example, the Spark versions it applies to and how to suppress one finding. RULE is an ID\n"+
			"(BL301) or a name (bucket-count-mismatch).",
		s, "bucketlint explain BL301", "bucketlint explain bucket-count-mismatch")
	if err := parseFlags(fs, args); err != nil {
		return "", err
	}
	if fs.NArg() != 1 {
		return "", usagef("want one RULE (an ID such as BL301, or a name), got %d arguments", fs.NArg())
	}
	return fs.Arg(0), nil
}

func runExplainCmd(_ context.Context, args []string, s *streams) error {
	id, err := parseExplain(args, s)
	if err != nil {
		return err
	}
	all := rules.All()
	r := rules.ByID(all, strings.ToUpper(id))
	if r == nil {
		r = rules.ByID(all, strings.ToLower(id))
	}
	if r == nil {
		return usagef("unknown rule %q; 'bucketlint rules' lists them", id)
	}
	return rules.WriteDoc(s.out, r)
}
