package main

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"unicode"

	"go.yaml.in/yaml/v3"

	"github.com/bucketlint/bucketlint/internal/readcap"
	"github.com/bucketlint/bucketlint/internal/yamlpos"
	"github.com/bucketlint/bucketlint/plan"
	"github.com/bucketlint/bucketlint/rules"
	"github.com/bucketlint/bucketlint/simulate"
)

// configName is the configuration file check looks for.
const configName = ".bucketlint.yaml"

// A config is .bucketlint.yaml (DESIGN.md §8). Every section validates itself; positions
// come from the YAML nodes so that errors say file:line.
type config struct {
	Spark      sparkConfig       `yaml:"spark"`
	Rules      []string          `yaml:"rules"`
	Severity   map[string]string `yaml:"severity"`
	Exclude    []string          `yaml:"exclude"`
	Catalog    []string          `yaml:"catalog"`
	Thresholds thresholdsConfig  `yaml:"thresholds"`

	file string     // the file it was read from; "" for no file
	root *yaml.Node // the document, for positions
}

type sparkConfig struct {
	Version string            `yaml:"version"`
	Conf    map[string]string `yaml:"conf"`
}

type thresholdsConfig struct {
	TargetBucketSize string `yaml:"target-bucket-size"`
	MinBucketSize    string `yaml:"min-bucket-size"`
	MaxBucketSize    string `yaml:"max-bucket-size"`
	BroadcastSize    string `yaml:"broadcast-size"`
	Cores            int    `yaml:"cores"`
}

// findConfig looks for .bucketlint.yaml in dir and its parents, stopping after the
// repository root (the first directory holding .git). It returns "" when there is none.
func findConfig(dir string) string {
	for {
		p := filepath.Join(dir, configName)
		if fi, err := os.Stat(p); err == nil && !fi.IsDir() {
			return p
		}
		if _, err := os.Stat(filepath.Join(dir, ".git")); err == nil {
			return ""
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return ""
		}
		dir = parent
	}
}

// loadConfig reads (a regular file of at most limit bytes) and validates a configuration
// file against the rule catalogue.
func loadConfig(file string, limit int64, catalogue []*rules.Rule) (*config, error) {
	src, err := readcap.File(file, limit)
	if err != nil {
		return nil, &configError{msg: "--config: " + file + ": " + readcap.Message(err)}
	}
	return parseConfig(file, src, catalogue)
}

// parseConfig decodes src strictly (unknown keys are errors) and validates each section.
func parseConfig(file string, src []byte, catalogue []*rules.Rule) (*config, error) {
	cfg := &config{file: file}
	var root yaml.Node
	if err := yaml.Unmarshal(src, &root); err != nil {
		return nil, yamlError(file, err)
	}
	if n := yamlpos.TooDeep(&root, yamlpos.MaxDepth); n != nil {
		return nil, &configError{msg: fmt.Sprintf("%s:%d:%d: YAML nested more than %d deep", file, n.Line, n.Column, yamlpos.MaxDepth)}
	}
	cfg.root = &root
	dec := yaml.NewDecoder(bytes.NewReader(src))
	dec.KnownFields(true)
	if err := dec.Decode(cfg); err != nil && !errors.Is(err, io.EOF) {
		return nil, yamlError(file, err)
	}
	var errs []error
	for _, v := range []func() []error{
		func() []error { return cfg.Spark.validate(cfg) },
		func() []error { return cfg.validateRules(catalogue) },
		func() []error { return cfg.validateSeverity(catalogue) },
		func() []error { return cfg.Thresholds.validate(cfg) },
	} {
		errs = append(errs, v()...)
	}
	if len(errs) > 0 {
		return nil, &configError{msg: joinByLine(errs)}
	}
	return cfg, nil
}

// yamlError rewrites yaml.v3's messages as file:line: message.
func yamlError(file string, err error) error {
	var lines []string
	for _, e := range yamlpos.Messages(err) {
		line, msg, ok := yamlpos.CutLine(e)
		if !ok {
			lines = append(lines, file+": "+e)
			continue
		}
		if name, ok := yamlpos.UnknownField(msg); ok {
			msg = fmt.Sprintf("unknown key %q", name)
		}
		lines = append(lines, fmt.Sprintf("%s:%d: %s", file, line, msg))
	}
	return &configError{msg: strings.Join(lines, "\n")}
}

// joinByLine prints validation errors ("file:line: message") in line order, one per line.
func joinByLine(errs []error) string {
	yamlpos.SortByLine(errs)
	return errors.Join(errs...).Error()
}

// at formats an error at the line of the YAML node found by path (keys, or list indexes).
func (c *config) at(path []string, format string, args ...any) error {
	n := yamlpos.Nearest(c.root, path)
	line := 1
	if n != nil {
		line = n.Line
	}
	return fmt.Errorf("%s:%d: %s", c.file, line, fmt.Sprintf(format, args...))
}

func (s *sparkConfig) validate(c *config) []error {
	var errs []error
	if s.Version != "" {
		if _, err := simulate.ParseVersion(s.Version); err != nil {
			errs = append(errs, c.at([]string{"spark", "version"}, "%v", err))
		}
	}
	for k := range s.Conf {
		if !strings.HasPrefix(k, "spark.") {
			errs = append(errs, c.at([]string{"spark", "conf", k}, "configuration key %q does not start with \"spark.\"", k))
		}
	}
	return errs
}

// validateRules checks the rules list: "all", "none", IDs, names or families ("BL3"), each
// optionally negated.
func (c *config) validateRules(catalogue []*rules.Rule) []error {
	var errs []error
	for i, r := range c.Rules {
		name := strings.TrimPrefix(r, "-")
		if name == "none" {
			continue
		}
		if len(rules.Select(catalogue, name)) == 0 {
			errs = append(errs, c.at([]string{"rules", strconv.Itoa(i)}, "unknown rule %q", r))
		}
	}
	return errs
}

func (c *config) validateSeverity(catalogue []*rules.Rule) []error {
	var errs []error
	for k, v := range c.Severity {
		if rules.ByID(catalogue, k) == nil {
			errs = append(errs, c.at([]string{"severity", k}, "unknown rule %q", k))
		}
		if _, ok := rules.ParseSeverity(v); !ok {
			errs = append(errs, c.at([]string{"severity", k}, "severity %q: want error, warning or info", v))
		}
	}
	return errs
}

func (t *thresholdsConfig) validate(c *config) []error {
	var errs []error
	for _, f := range []struct{ key, val string }{
		{"target-bucket-size", t.TargetBucketSize},
		{"min-bucket-size", t.MinBucketSize},
		{"max-bucket-size", t.MaxBucketSize},
		{"broadcast-size", t.BroadcastSize},
	} {
		if f.val == "" {
			continue
		}
		if n, err := simulate.ParseBytes(f.val); err != nil || n <= 0 {
			errs = append(errs, c.at([]string{"thresholds", f.key}, "%s %q: want a size such as 256MB", f.key, f.val))
		}
	}
	if t.Cores < 0 {
		errs = append(errs, c.at([]string{"thresholds", "cores"}, "cores must not be negative"))
	}
	return errs
}

// thresholds converts the section for the rule driver; validate has checked the sizes.
func (t *thresholdsConfig) thresholds() rules.Thresholds {
	size := func(s string) int64 {
		n, _ := simulate.ParseBytes(s)
		return n
	}
	return rules.Thresholds{
		TargetBucketBytes: size(t.TargetBucketSize), MinBucketBytes: size(t.MinBucketSize),
		MaxBucketBytes: size(t.MaxBucketSize), BroadcastBytes: size(t.BroadcastSize), ClusterCores: t.Cores,
	}
}

// A configError is a problem in the configuration file (exit code 2).
type configError struct{ msg string }

func (e *configError) Error() string { return e.msg }

// printEffective writes the configuration a check runs with, for -v: which file was read,
// the Spark version and settings, and the rules that are on.
func printEffective(w io.Writer, cfg *config, so simulate.Options, enabled map[string]bool, catalogue []*rules.Rule) {
	file := cfg.file
	if file == "" {
		file = "none (defaults)"
	}
	fmt.Fprintf(w, "config: %s\nspark: %s\n", file, so.Version())
	keys := make([]string, 0, len(so.Confs))
	for k := range so.Confs {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		fmt.Fprintf(w, "conf: %s=%s\n", k, so.Confs[k])
	}
	var on, off []string
	for _, r := range catalogue {
		if enabled[r.ID] {
			on = append(on, r.ID)
		} else {
			off = append(off, r.ID)
		}
	}
	fmt.Fprintf(w, "rules on: %s\n", strings.Join(on, " "))
	if len(off) > 0 {
		fmt.Fprintf(w, "rules off: %s\n", strings.Join(off, " "))
	}
	if len(cfg.Exclude) > 0 {
		fmt.Fprintf(w, "exclude: %s\n", strings.Join(cfg.Exclude, " "))
	}
}

// printNotes prints what the readers skipped on purpose (dbt macros, Jinja not understood),
// one "note:" line each, control characters dropped.
func printNotes(w io.Writer, notes []plan.Note) {
	clean := func(s string) string {
		return strings.Map(func(r rune) rune {
			if unicode.IsControl(r) {
				return -1
			}
			return r
		}, s)
	}
	for _, n := range notes {
		fmt.Fprintf(w, "note: %s: %s\n", clean(n.Pos.String()), clean(n.Text))
	}
}
