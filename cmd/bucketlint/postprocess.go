package main

import (
	"path"
	"strings"

	"github.com/bucketlint/bucketlint/report"
	"github.com/bucketlint/bucketlint/rules"
)

// A step is one post-processing pass over the diagnostics of a check run.
type step struct {
	name string
	run  func([]rules.Diagnostic) []rules.Diagnostic
}

// settings are what the steps need: the check's resolved configuration and the inline
// suppressions found.
type settings struct {
	suppressions []*rules.Suppression
	ran          map[string]bool // rules that ran (inline ignores for the others are not judged)
	enabled      map[string]bool // rules reported
	exclude      []string
	severity     map[string]rules.Severity
	baseline     map[string]int // nil: no baseline
	rebase       *rebaser       // names files from the repository root for fingerprints
	catalogue    []*rules.Rule
	today        string // "YYYY-MM-DD", for until= dates of inline ignores
	explain      bool   // keep explanations (check --explain): info findings without a fix
	explained    int    // explanations left out, set by the explanations step
	baselined    int    // set by the baseline step
	unused       int    // baseline entries that matched nothing, set by the baseline step
}

// steps returns the post-processing passes in the order they must run.
func (st *settings) steps() []step {
	return []step{
		// Ignores first: an inline ignore must see every finding of its line before anything
		// else drops one, or it would be reported unused (BL902).
		{"ignores", func(ds []rules.Diagnostic) []rules.Diagnostic {
			return rules.ApplySuppressions(ds, st.suppressions, st.ran, st.catalogue, st.today)
		}},
		// Excludes after ignores, so an excluded file's BL902 disappears with it.
		{"excludes", st.excludes},
		// Enable/disable after ignores: BL902 and BL901 are produced here, not by rules.Run,
		// and obey the same switches.
		{"enable/disable", func(ds []rules.Diagnostic) []rules.Diagnostic {
			return filter(ds, func(d *rules.Diagnostic) bool { return st.enabled[d.Rule] })
		}},
		// Severity before baseline: the baseline matches rule and message, not severity.
		{"severity", func(ds []rules.Diagnostic) []rules.Diagnostic {
			for i := range ds {
				if s, ok := st.severity[ds[i].Rule]; ok {
					ds[i].Severity = s
				}
			}
			return ds
		}},
		// Explanations after severity (a severity override makes one a finding) and before
		// the baseline, which records and matches only what is reported.
		{"explanations", func(ds []rules.Diagnostic) []rules.Diagnostic {
			if st.explain {
				return ds
			}
			var left []rules.Diagnostic
			ds = filter(ds, func(d *rules.Diagnostic) bool {
				if d.Explanation() {
					left = append(left, *d)
					return false
				}
				return true
			})
			st.explained += len(dedupe(left)) // counted as --explain would list them
			return ds
		}},
		// Baseline after every filter, so that an entry is spent only on a reported finding.
		{"baseline", func(ds []rules.Diagnostic) []rules.Diagnostic {
			var n int
			ds, n = applyBaseline(ds, st.baseline, st.rebase)
			st.baselined += n
			st.unused = -n
			for _, k := range st.baseline {
				st.unused += k
			}
			return ds
		}},
		// Dedupe needs sorted input; sort last so the output order is the report order.
		{"dedupe", dedupe},
		{"sort", func(ds []rules.Diagnostic) []rules.Diagnostic { report.SortFindings(ds); return ds }},
	}
}

func (st *settings) excludes(ds []rules.Diagnostic) []rules.Diagnostic {
	if len(st.exclude) == 0 {
		return ds
	}
	return filter(ds, func(d *rules.Diagnostic) bool {
		// Matched below the working directory (or the repository root): "tmp" must not
		// exclude every file of a project checked as /tmp/project. A file outside both was
		// walked from a root named on the command line, and the loader already applied the
		// globs to it relative to that root.
		file, ok := st.rebase.local(d.Span.Start.File)
		return !ok || !excluded(file, st.exclude)
	})
}

// excluded reports whether a file matches one of the globs, as parser.Load skips files: a
// glob without a slash matches any path element ("build", "*.gen.sql"); one with a slash, or
// a leading "/", matches from the start of the path, "**/" at any depth; a glob that matches
// a directory excludes everything below it.
func excluded(file string, globs []string) bool {
	file = strings.TrimPrefix(path.Clean(strings.ReplaceAll(file, "\\", "/")), "./")
	parts := strings.Split(file, "/")
	for _, g := range globs {
		g = strings.TrimSuffix(g, "/")
		anchored := strings.Contains(g, "/") && !strings.HasPrefix(g, "**/")
		g = strings.TrimPrefix(strings.TrimSuffix(strings.TrimPrefix(g, "/"), "/**"), "**/")
		for start := range parts {
			if start > 0 && anchored {
				break
			}
			for end := start + 1; end <= len(parts); end++ {
				if ok, _ := path.Match(g, strings.Join(parts[start:end], "/")); ok {
					return true
				}
			}
		}
	}
	return false
}

func filter(ds []rules.Diagnostic, keep func(*rules.Diagnostic) bool) []rules.Diagnostic {
	out := ds[:0]
	for i := range ds {
		if keep(&ds[i]) {
			out = append(out, ds[i])
		}
	}
	return out
}

// dedupe drops a diagnostic equal in rule, position and message to another (two sources of
// one fact, such as the same DDL in two files read as one table, may report it twice).
func dedupe(ds []rules.Diagnostic) []rules.Diagnostic {
	report.SortFindings(ds)
	out := ds[:0]
	for i := range ds {
		if n := len(out); n > 0 && out[n-1].Rule == ds[i].Rule && out[n-1].Span.Start == ds[i].Span.Start && out[n-1].Message == ds[i].Message {
			continue
		}
		out = append(out, ds[i])
	}
	return out
}

func postprocess(ds []rules.Diagnostic, st *settings) []rules.Diagnostic {
	for _, s := range st.steps() {
		ds = s.run(ds)
	}
	return ds
}
