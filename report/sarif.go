package report

import (
	"encoding/json"
	"fmt"
	"io"
	"strings"

	"github.com/bucketlint/bucketlint/plan"
	"github.com/bucketlint/bucketlint/rules"
)

// sarifSchema is where SARIF 2.1.0 consumers find the schema the log follows.
const sarifSchema = "https://json.schemastore.org/sarif-2.1.0.json"

// docsURL is the rule documentation page; a rule's anchor is its name.
const docsURL = "https://github.com/bucketlint/bucketlint/blob/main/docs/rules.md"

type sarifLog struct {
	Schema  string     `json:"$schema"`
	Version string     `json:"version"`
	Runs    []sarifRun `json:"runs"`
}

type sarifRun struct {
	Tool        sarifTool         `json:"tool"`
	Invocations []sarifInvocation `json:"invocations"`
	Results     []sarifResult     `json:"results"`
	ColumnKind  string            `json:"columnKind"`
}

// sarifInvocation says whether the run succeeded; input errors are its notifications, which
// code scanning shows on its tool status page.
type sarifInvocation struct {
	ExecutionSuccessful bool                `json:"executionSuccessful"`
	Notifications       []sarifNotification `json:"toolExecutionNotifications,omitempty"`
}

type sarifNotification struct {
	Level     string          `json:"level"`
	Message   sarifText       `json:"message"`
	Locations []sarifLocation `json:"locations,omitempty"`
}

type sarifTool struct {
	Driver sarifDriver `json:"driver"`
}

type sarifDriver struct {
	Name            string      `json:"name"`
	SemanticVersion string      `json:"semanticVersion"`
	InformationURI  string      `json:"informationUri"`
	Rules           []sarifRule `json:"rules"`
}

type sarifText struct {
	Text     string `json:"text"`
	Markdown string `json:"markdown,omitempty"`
}

type sarifRule struct {
	ID                   string         `json:"id"`
	Name                 string         `json:"name"`
	ShortDescription     sarifText      `json:"shortDescription"`
	FullDescription      sarifText      `json:"fullDescription"`
	Help                 sarifText      `json:"help"`
	HelpURI              string         `json:"helpUri"`
	DefaultConfiguration sarifRuleConf  `json:"defaultConfiguration"`
	Properties           sarifRuleProps `json:"properties"`
}

type sarifRuleConf struct {
	Level   string `json:"level"`
	Enabled bool   `json:"enabled"`
}

type sarifRuleProps struct {
	Tags      []string `json:"tags"`
	Precision string   `json:"precision"`
	Severity  string   `json:"problem.severity"`
}

type sarifResult struct {
	RuleID              string            `json:"ruleId"`
	RuleIndex           int               `json:"ruleIndex"`
	Level               string            `json:"level"`
	Message             sarifText         `json:"message"`
	Locations           []sarifLocation   `json:"locations"`
	RelatedLocations    []sarifLocation   `json:"relatedLocations,omitempty"`
	PartialFingerprints map[string]string `json:"partialFingerprints"`
	Fixes               []sarifFix        `json:"fixes,omitempty"`
	// Properties carry the measured cost of check --evidence.
	Properties *sarifMeasured `json:"properties,omitempty"`
}

// sarifMeasured is a result's measured cost (rules.Measured) as SARIF result properties.
type sarifMeasured struct {
	Bytes   int64 `json:"bucketlint.measured.shuffleBytes"`
	Records int64 `json:"bucketlint.measured.shuffleRecords"`
	TimeNs  int64 `json:"bucketlint.measured.shuffleWriteTimeNs"`
	Runs    int   `json:"bucketlint.measured.runs"`
	Apps    int   `json:"bucketlint.measured.applications"`
}

type sarifLocation struct {
	ID               *int          `json:"id,omitempty"`
	PhysicalLocation sarifPhysical `json:"physicalLocation"`
	Message          *sarifText    `json:"message,omitempty"`
}

type sarifPhysical struct {
	ArtifactLocation sarifArtifact `json:"artifactLocation"`
	Region           sarifRegion   `json:"region"`
}

type sarifArtifact struct {
	URI       string `json:"uri"`
	URIBaseID string `json:"uriBaseId,omitempty"`
}

type sarifRegion struct {
	StartLine   int `json:"startLine"`
	StartColumn int `json:"startColumn"`
	EndLine     int `json:"endLine"`
	EndColumn   int `json:"endColumn"`
}

type sarifFix struct {
	Description     sarifText             `json:"description"`
	ArtifactChanges []sarifArtifactChange `json:"artifactChanges"`
}

type sarifArtifactChange struct {
	ArtifactLocation sarifArtifact      `json:"artifactLocation"`
	Replacements     []sarifReplacement `json:"replacements"`
}

type sarifReplacement struct {
	DeletedRegion   sarifRegion `json:"deletedRegion"`
	InsertedContent sarifText   `json:"insertedContent"`
}

// SARIF writes a SARIF 2.1.0 log as GitHub code scanning reads it: one run, the full rule
// catalogue with descriptions, help and default levels, and per result its level, location,
// related locations, a line-independent partialFingerprints.primaryLocationLineHash and the
// fix. Paths stay relative to the repository (uriBaseId %SRCROOT%); columns are converted
// from bytes into UTF-16 code units when the source is available.
func SARIF(w io.Writer, c *Check) error {
	run := sarifRun{
		Tool: sarifTool{Driver: sarifDriver{
			Name: c.Tool.Name, SemanticVersion: c.Tool.Version,
			InformationURI: "https://github.com/bucketlint/bucketlint",
			Rules:          make([]sarifRule, 0, len(c.Rules)),
		}},
		Invocations: []sarifInvocation{invocation(c)},
		Results:     make([]sarifResult, 0, len(c.Findings)),
		ColumnKind:  "utf16CodeUnits",
	}
	index := map[string]int{}
	for _, r := range c.Rules {
		index[r.ID] = len(run.Tool.Driver.Rules)
		run.Tool.Driver.Rules = append(run.Tool.Driver.Rules, sarifRuleOf(r))
	}
	fps := Fingerprints(c.Findings)
	cv := columnConverter{source: c.Source}
	for i := range c.Findings {
		d := &c.Findings[i]
		ri, ok := index[d.Rule]
		if !ok {
			// A finding of a rule outside the catalogue still needs a descriptor.
			ri = len(run.Tool.Driver.Rules)
			index[d.Rule] = ri
			run.Tool.Driver.Rules = append(run.Tool.Driver.Rules, sarifRuleOf(&rules.Rule{ID: d.Rule, Name: d.Name, Title: d.Name, Severity: d.Severity}))
		}
		run.Results = append(run.Results, sarifResultOf(d, ri, fps[i], cv))
	}
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	enc.SetEscapeHTML(false)
	return enc.Encode(sarifLog{Schema: sarifSchema, Version: "2.1.0", Runs: []sarifRun{run}})
}

// invocation reports the input errors: the run succeeded (it reported what it could read), and
// each unreadable input is an error notification at its position.
func invocation(c *Check) sarifInvocation {
	inv := sarifInvocation{ExecutionSuccessful: true}
	cv := columnConverter{source: c.Source}
	for _, e := range c.Errors {
		n := sarifNotification{Level: "error", Message: sarifText{Text: e.Message}}
		if e.File != "" {
			pos := plan.Pos{File: e.File, Line: line(e.Line), Col: col(e.Column)}
			n.Locations = []sarifLocation{{PhysicalLocation: cv.physical(plan.Span{Start: pos})}}
		}
		inv.Notifications = append(inv.Notifications, n)
	}
	return inv
}

func sarifRuleOf(r *rules.Rule) sarifRule {
	title := r.Title
	if title == "" {
		title = r.Name
	}
	full := firstParagraph(r.Doc)
	if full == "" {
		full = title
	}
	return sarifRule{
		ID: r.ID, Name: r.Name,
		ShortDescription:     sarifText{Text: title},
		FullDescription:      sarifText{Text: truncate(full, 1024)},
		Help:                 sarifText{Text: r.Doc + "\n", Markdown: ruleMarkdown(r)},
		HelpURI:              docsURL + "#" + strings.ToLower(r.ID) + "-" + r.Name,
		DefaultConfiguration: sarifRuleConf{Level: sarifLevel(r.Severity), Enabled: r.Default},
		Properties: sarifRuleProps{
			Tags:      []string{"spark", "bucketing", category(r.ID)},
			Precision: "high",
			Severity:  problemSeverity(r.Severity),
		},
	}
}

func sarifResultOf(d *rules.Diagnostic, ruleIndex int, fp string, cv columnConverter) sarifResult {
	res := sarifResult{
		RuleID: d.Rule, RuleIndex: ruleIndex, Level: sarifLevel(d.Severity),
		Message:             sarifText{Text: d.Message},
		Locations:           []sarifLocation{{PhysicalLocation: cv.physical(d.Span)}},
		PartialFingerprints: map[string]string{"primaryLocationLineHash": fp},
	}
	var links []string
	for i, r := range d.Related {
		id := i + 1
		res.RelatedLocations = append(res.RelatedLocations, sarifLocation{ID: &id, PhysicalLocation: cv.physical(r.Span), Message: &sarifText{Text: r.Message}})
		// GitHub links a related location only where the message embeds it: [text](id).
		links = append(links, fmt.Sprintf("[%s](%d)", sarifLinkText(r.Message), id))
	}
	if len(links) > 0 {
		res.Message.Text = sarifLinkText(d.Message) + ". See: " + strings.Join(links, "; ") + "."
	}
	if m := d.Measured; m != nil {
		res.Message.Text += " Measured: " + MeasuredText(m) + "."
		res.Properties = &sarifMeasured{Bytes: m.Bytes, Records: m.Records, TimeNs: m.TimeNs, Runs: m.Runs, Apps: m.Apps}
	}
	if d.Fix != nil && len(d.Fix.Edits) > 0 {
		fix := sarifFix{Description: sarifText{Text: d.Fix.Description}}
		byFile := map[string]int{}
		for _, e := range d.Fix.Edits {
			k, ok := byFile[e.Span.Start.File]
			if !ok {
				k = len(fix.ArtifactChanges)
				byFile[e.Span.Start.File] = k
				fix.ArtifactChanges = append(fix.ArtifactChanges, sarifArtifactChange{ArtifactLocation: artifact(e.Span.Start.File)})
			}
			ch := &fix.ArtifactChanges[k]
			ch.Replacements = append(ch.Replacements, sarifReplacement{DeletedRegion: cv.region(e.Span), InsertedContent: sarifText{Text: e.Text}})
		}
		res.Fixes = []sarifFix{fix}
	}
	return res
}

// sarifLinkText escapes the brackets that embedded links use (SARIF §3.11.6).
func sarifLinkText(s string) string {
	return sarifLinkEscaper.Replace(strings.TrimSuffix(s, "."))
}

// artifact locates a file: a relative path against the repository root (%SRCROOT%), as code
// scanning wants it; an absolute path as a file URI.
func artifact(file string) sarifArtifact {
	if u := uriOf(file); !strings.HasPrefix(u, "/") {
		return sarifArtifact{URI: u, URIBaseID: "%SRCROOT%"}
	}
	return sarifArtifact{URI: "file://" + uriOf(file)}
}

// uriOf turns a slash or OS path into a relative URI reference.
func uriOf(file string) string {
	file = strings.ReplaceAll(file, "\\", "/")
	file = strings.TrimPrefix(file, "./")
	return uriEscaper.Replace(file)
}

func sarifLevel(s rules.Severity) string {
	switch s {
	case rules.Error:
		return "error"
	case rules.Info:
		return "note"
	}
	return "warning"
}

func problemSeverity(s rules.Severity) string {
	switch s {
	case rules.Error:
		return "error"
	case rules.Info:
		return "recommendation"
	}
	return "warning"
}

// category names a rule family by the ID's first digit (STYLE.md §3.4).
func category(id string) string {
	if len(id) < 3 {
		return "bucketlint"
	}
	switch id[2] {
	case '1':
		return "layout"
	case '2':
		return "code"
	case '3':
		return "joins"
	case '4':
		return "configuration"
	}
	return "bucketlint"
}

// ruleMarkdown is the rule's documentation page for SARIF's help.markdown: title, why,
// bad and good examples and the Spark versions it applies to.
func ruleMarkdown(r *rules.Rule) string {
	var b strings.Builder
	b.WriteString("**" + r.ID + " " + r.Name + "**: " + r.Title + "\n")
	if doc := strings.TrimSpace(r.Doc); doc != "" {
		b.WriteString("\n" + doc + "\n")
	}
	if bad := strings.TrimSpace(r.Bad); bad != "" {
		b.WriteString("\nBad:\n\n```\n" + bad + "\n```\n")
	}
	if good := strings.TrimSpace(r.Good); good != "" {
		b.WriteString("\nGood:\n\n```\n" + good + "\n```\n")
	}
	if r.Spark != "" {
		b.WriteString("\nSpark versions: " + r.Spark + ".\n")
	}
	b.WriteString("\n[Rule documentation](" + ruleURL(r.ID, r.Name) + ")\n")
	return b.String()
}
