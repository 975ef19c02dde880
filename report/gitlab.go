package report

import (
	"encoding/json"
	"io"

	"github.com/bucketlint/bucketlint/rules"
)

// gitlabIssue is one entry of a GitLab Code Quality report (a subset of Code Climate's).
type gitlabIssue struct {
	Description string         `json:"description"`
	CheckName   string         `json:"check_name"`
	Fingerprint string         `json:"fingerprint"`
	Severity    string         `json:"severity"`
	Location    gitlabLocation `json:"location"`
}

type gitlabLocation struct {
	Path  string      `json:"path"`
	Lines gitlabLines `json:"lines"`
}

type gitlabLines struct {
	Begin int `json:"begin"`
	End   int `json:"end"`
}

// GitLab writes a GitLab Code Quality report (artifacts: reports: codequality), which merge
// requests show as new and fixed findings: one issue per finding with the rule as check
// name, a fingerprint stable across line moves, and the severity mapped to GitLab's scale.
func GitLab(w io.Writer, c *Check) error {
	out := make([]gitlabIssue, 0, len(c.Findings))
	fps := Fingerprints(c.Findings)
	for i := range c.Findings {
		d := &c.Findings[i]
		out = append(out, gitlabIssue{
			Description: d.Message + " (" + d.Rule + ")",
			CheckName:   d.Rule + " " + d.Name,
			Fingerprint: fps[i],
			Severity:    gitlabSeverity(d.Severity),
			Location: gitlabLocation{Path: d.Span.Start.File, Lines: gitlabLines{
				Begin: line(d.Span.Start.Line), End: line(endOf(d.Span).Line),
			}},
		})
	}
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	enc.SetEscapeHTML(false)
	return enc.Encode(out)
}

func gitlabSeverity(s rules.Severity) string {
	switch s {
	case rules.Error:
		return "major"
	case rules.Info:
		return "info"
	}
	return "minor"
}
