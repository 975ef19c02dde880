package main

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/bucketlint/bucketlint/parser/perr"
	"github.com/bucketlint/bucketlint/plan"
	"github.com/bucketlint/bucketlint/rules"
)

// ignoreWord starts an inline suppression after a comment marker: `-- bucketlint:ignore
// BL301 reason` (SQL), `# bucketlint:ignore BL201 reason` (Python, shell, YAML), `//
// bucketlint:ignore BL301 reason` (Scala). An `until=2026-12-31` word among the reason's
// ends the suppression after that day.
const ignoreWord = "bucketlint:ignore"

// A directive is one inline suppression. On a line of its own it covers the next line, or in
// a SQL file the whole statement that starts there; after code it covers its own line.
type directive struct {
	pos    plan.Pos
	rules  []string // IDs, as resolved from IDs or names
	reason string
	until  string // "2026-12-31": the last day it suppresses; "" for no end
	line   int    // the first line whose findings it suppresses
	last   int    // the last such line (line when it covers one)
	used   bool
}

// scanDirectives finds the suppressions in one file. A directive without a reason, or naming
// no rule or an unknown one, is an input error and suppresses nothing.
func scanDirectives(file string, src []byte, catalogue []*rules.Rule) ([]*directive, perr.List) {
	var ds []*directive
	var errs perr.List
	if !bytes.Contains(src, []byte(ignoreWord)) {
		return nil, nil
	}
	lines := strings.Split(string(src), "\n")
	for n, text := range lines {
		i := strings.Index(text, ignoreWord)
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
		pos := plan.Pos{File: file, Line: n + 1, Col: i + 1}
		d := &directive{pos: pos, line: n + 1}
		rest := strings.TrimSpace(text[i+len(ignoreWord):])
		switch strings.TrimSpace(strings.TrimSuffix(before, marker)) {
		case "":
			d.line = n + 2
			if marker == "--" && isSQLFile(file) {
				d.last = statementEnd(lines, n+1) + 1
			}
		case `"`:
			// A notebook (.ipynb) cell line: the comment is a JSON string of its own, the
			// code it covers the next one.
			d.line = n + 2
			rest = strings.TrimSuffix(strings.TrimSuffix(strings.TrimSuffix(rest, ","), `"`), `\n`)
		}
		fields := strings.Fields(strings.TrimSuffix(rest, "*/"))
		if len(fields) == 0 {
			errs.Add(pos, "%s needs a rule and a reason: %s BL301 <why this finding is accepted>", ignoreWord, ignoreWord)
			continue
		}
		bad := false
		for _, id := range strings.Split(fields[0], ",") {
			r := rules.ByID(catalogue, strings.TrimSpace(id))
			if r == nil {
				errs.Add(pos, "%s names unknown rule %q", ignoreWord, id)
				bad = true
				continue
			}
			d.rules = append(d.rules, r.ID)
		}
		var words []string
		for _, f := range fields[1:] {
			date, ok := strings.CutPrefix(f, "until=")
			if !ok {
				words = append(words, f)
				continue
			}
			if _, err := time.Parse(time.DateOnly, date); err != nil {
				errs.Add(pos, "%s until=%s: want a date such as until=2026-12-31", ignoreWord, date)
				bad = true
			}
			d.until = date
		}
		d.reason = strings.Join(words, " ")
		if d.reason == "" {
			errs.Add(pos, "%s %s needs a reason: say why the finding is accepted", ignoreWord, fields[0])
			bad = true
		}
		if d.last < d.line {
			d.last = d.line
		}
		if !bad {
			ds = append(ds, d)
		}
	}
	return ds, errs
}

// expired reports whether the directive's until= date is before today ("YYYY-MM-DD"; dates
// in this form compare as strings).
func (d *directive) expired(today string) bool {
	return d.until != "" && today != "" && d.until < today
}

// suppresses reports whether d covers the diagnostic.
func (d *directive) suppresses(x *rules.Diagnostic) bool {
	if x.Span.Start.File != d.pos.File || x.Span.Start.Line < d.line || x.Span.Start.Line > d.last {
		return false
	}
	for _, id := range d.rules {
		if id == x.Rule {
			return true
		}
	}
	return false
}

// applyIgnores drops the diagnostics a directive covers and reports each directive that
// covered nothing as BL902, for the rules that ran: a directive for a disabled rule cannot
// be judged. A directive whose until= date is past suppresses nothing, and says so.
func applyIgnores(ds []rules.Diagnostic, dirs []*directive, ran map[string]bool, bl902 *rules.Rule, today string) []rules.Diagnostic {
	out := ds[:0]
	for i := range ds {
		kept := true
		for _, d := range dirs {
			if !d.expired(today) && d.suppresses(&ds[i]) {
				d.used, kept = true, false
			}
		}
		if kept {
			out = append(out, ds[i])
		}
	}
	for _, d := range dirs {
		if d.used || !anyRan(d.rules, ran) || bl902 == nil {
			continue
		}
		out = append(out, rules.Diagnostic{
			Rule: bl902.ID, Name: bl902.Name, Severity: bl902.Severity,
			Span:    plan.Span{Start: d.pos, End: plan.Pos{File: d.pos.File, Line: d.pos.Line, Col: d.pos.Col + len(ignoreWord)}},
			Message: fmt.Sprintf("%s %s suppresses nothing on line %d; remove it", ignoreWord, strings.Join(d.rules, ","), d.line),
			Fix:     &rules.Fix{Description: "Remove the unused " + ignoreWord + " comment"},
		})
		if d.expired(today) {
			last := &out[len(out)-1]
			last.Message = fmt.Sprintf("%s %s expired on %s; fix the finding on line %d or extend the date", ignoreWord, strings.Join(d.rules, ","), d.until, d.line)
			last.Fix = &rules.Fix{Description: "Fix the finding, or move the until= date if it is still accepted"}
		}
	}
	return out
}

func anyRan(ids []string, ran map[string]bool) bool {
	for _, id := range ids {
		if ran[id] {
			return true
		}
	}
	return false
}

// statementEnd returns the index of the line holding the ';' that ends the SQL statement
// starting at lines[from], or the last line when none does. Semicolons inside quotes,
// backquotes and comments do not count.
func statementEnd(lines []string, from int) int {
	var quote byte
	block := false
	for i := from; i < len(lines); i++ {
		l := lines[i]
		for j := 0; j < len(l); j++ {
			c := l[j]
			switch {
			case block:
				if c == '*' && j+1 < len(l) && l[j+1] == '/' {
					block = false
					j++
				}
			case quote != 0:
				if c == '\\' && quote != '`' {
					j++
				} else if c == quote {
					quote = 0
				}
			case c == '-' && j+1 < len(l) && l[j+1] == '-':
				j = len(l)
			case c == '/' && j+1 < len(l) && l[j+1] == '*':
				block = true
				j++
			case c == '\'' || c == '"' || c == '`':
				quote = c
			case c == ';':
				return i
			}
		}
	}
	return len(lines) - 1
}

// isSQLFile reports whether a path names a SQL file (not a directory so named).
func isSQLFile(f string) bool {
	switch strings.ToLower(filepath.Ext(f)) {
	case ".sql", ".hql", ".ddl":
		fi, err := os.Stat(f)
		return err != nil || !fi.IsDir()
	}
	return false
}
