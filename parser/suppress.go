package parser

import (
	"bytes"
	"fmt"
	"slices"
	"strings"
	"time"

	sqlp "github.com/bucketlint/bucketlint/parser/sql"
	"github.com/bucketlint/bucketlint/plan"
)

// scanSuppressions finds the inline suppressions of one file (sql: a SQL file, whose
// directive on a line of its own covers the statement that starts on the next line). A
// directive without a rule or a reason, or with an unreadable until= date, is kept with its
// Problem (only check reports it); rule names are checked against the rules later.
func scanSuppressions(file string, src []byte, sql bool) []plan.Suppression {
	var out []plan.Suppression
	if !bytes.Contains(src, []byte(plan.IgnoreWord)) {
		return nil
	}
	lines := strings.Split(string(src), "\n")
	var ends []int // the SQL statements' end offsets, cut once when a directive needs them
	next := 0      // the offset of the line after the current one
	for n, text := range lines {
		next += len(text) + 1
		i := strings.Index(text, plan.IgnoreWord)
		if i < 0 {
			continue
		}
		before := strings.TrimRight(text[:i], " \t")
		marker := ""
		for _, m := range []string{"--", "#", "//"} {
			if strings.HasSuffix(before, m) {
				marker = m
				break
			}
		}
		if marker == "" {
			continue // the words in a string or in prose, not a comment
		}
		s := plan.Suppression{Pos: plan.Pos{File: file, Line: n + 1, Col: i + 1}, Line: n + 1}
		rest := strings.TrimSpace(text[i+len(plan.IgnoreWord):])
		switch strings.TrimSpace(strings.TrimSuffix(before, marker)) {
		case "":
			s.Line = n + 2
			if marker == "--" && sql {
				if ends == nil {
					ends = sqlp.StatementEnds(string(src))
				}
				// The statement that starts on the next line ends at the first end after it.
				i, _ := slices.BinarySearch(ends, next)
				s.Last = lineOf(src, ends[min(i, len(ends)-1)])
			}
		case `"`:
			// A notebook (.ipynb) cell line: the comment is a JSON string of its own, the
			// code it covers the next one.
			s.Line = n + 2
			rest = strings.TrimSuffix(strings.TrimSuffix(strings.TrimSuffix(rest, ","), `"`), `\n`)
		}
		if s.Last < s.Line {
			s.Last = s.Line
		}
		readSuppression(&s, rest)
		out = append(out, s)
	}
	return out
}

// readSuppression reads the rules, reason and until= date after the word, setting Problem
// when the directive is malformed.
func readSuppression(s *plan.Suppression, rest string) {
	fields := strings.Fields(strings.TrimSuffix(rest, "*/"))
	if len(fields) == 0 {
		s.Problem = fmt.Sprintf("%s needs a rule and a reason: %s BL301 <why this finding is accepted>", plan.IgnoreWord, plan.IgnoreWord)
		return
	}
	for _, id := range strings.Split(fields[0], ",") {
		s.Rules = append(s.Rules, strings.TrimSpace(id))
	}
	var words []string
	for _, f := range fields[1:] {
		date, isDate := strings.CutPrefix(f, "until=")
		if !isDate {
			words = append(words, f)
			continue
		}
		if _, err := time.Parse(time.DateOnly, date); err != nil && s.Problem == "" {
			s.Problem = fmt.Sprintf("%s until=%s: want a date such as until=2026-12-31", plan.IgnoreWord, date)
		}
		s.Until = date
	}
	s.Reason = strings.Join(words, " ")
	if s.Reason == "" && s.Problem == "" {
		s.Problem = fmt.Sprintf("%s %s needs a reason: say why the finding is accepted", plan.IgnoreWord, fields[0])
	}
}

// lineOf returns the line number of offset off.
func lineOf(src []byte, off int) int {
	return bytes.Count(src[:min(off, len(src))], []byte("\n")) + 1
}
