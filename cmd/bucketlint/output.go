package main

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"strings"

	"github.com/bucketlint/bucketlint/report"
)

// An output is one --format: a format written to standard output or to a file.
type output struct {
	format string
	file   string // "" or "-": standard output
}

// outputsFlag is the repeatable --format FORMAT[=FILE].
type outputsFlag []output

func (o *outputsFlag) String() string {
	parts := make([]string, len(*o))
	for i, x := range *o {
		parts[i] = x.format
		if x.file != "" {
			parts[i] += "=" + x.file
		}
	}
	return strings.Join(parts, ",")
}

func (o *outputsFlag) Set(v string) error {
	name, file, _ := strings.Cut(v, "=")
	if _, ok := report.FormatByName(name); !ok {
		return fmt.Errorf("unknown format %q; want one of %s", name, strings.Join(report.Formats(), ", "))
	}
	if strings.Contains(v, "=") && file == "" {
		return fmt.Errorf("format %s=: missing file name", name)
	}
	*o = append(*o, output{format: name, file: file})
	return nil
}

// toStdout reports whether the output goes to standard output.
func (x output) toStdout() bool { return x.file == "" || x.file == "-" }

// checkOutputs refuses two formats on standard output and files that are directories, before
// any work is done.
func checkOutputs(outs []output) error {
	stdout := 0
	for _, x := range outs {
		if x.toStdout() {
			stdout++
			continue
		}
		if fi, err := os.Stat(x.file); err == nil && fi.IsDir() {
			return usagef("--format %s=%s: %s is a directory; name a file", x.format, x.file, x.file)
		}
	}
	if stdout > 1 {
		return usagef("several formats write to standard output; give all but one a file: --format sarif=out.sarif")
	}
	return nil
}

// writeOutputFile writes a report file; the file is what the user named, replaced whole.
func writeOutputFile(file string, data []byte) error {
	if fi, err := os.Stat(file); err == nil && fi.IsDir() {
		return fmt.Errorf("%s is a directory", file)
	}
	return os.WriteFile(file, data, 0o644)
}

// checkTargets refuses report and baseline files that are inputs: writing a report over the
// DDL it was computed from is never what the user meant.
func checkTargets(inputs []string, targets []string) error {
	for _, t := range targets {
		ti, err := os.Stat(t)
		if err != nil {
			continue // a new file
		}
		for _, in := range inputs {
			if ii, err := os.Stat(in); err == nil && os.SameFile(ti, ii) {
				return usagef("%s is an input of this check; refusing to overwrite it with a report", t)
			}
		}
	}
	return nil
}

// render writes one format into memory, so that a failing format never leaves half a file.
func render(format string, c *report.Check) ([]byte, error) {
	f, _ := report.FormatByName(format)
	var b bytes.Buffer
	if err := f(&b, c); err != nil {
		return nil, fmt.Errorf("writing %s: %w", format, err)
	}
	return b.Bytes(), nil
}

// writeOutputs renders every format and writes it; the github format's overflow goes to
// $GITHUB_STEP_SUMMARY when the environment names it. Formats other than text and json name
// files relative to the repository root (rootRelative).
func writeOutputs(outs []output, c *report.Check, s *streams) error {
	var errs []error
	var rooted *report.Check // made at the first format that names files from the root
	for _, o := range outs {
		cc := *c
		if rootRelative(o.format) {
			if rooted == nil {
				rooted = newRebaser().check(c)
			}
			cc = *rooted
		}
		cc.Color = o.toStdout() && s.color
		if o.format == "github" {
			if p := s.env("GITHUB_STEP_SUMMARY"); p != "" {
				f, err := os.OpenFile(p, os.O_APPEND|os.O_CREATE|os.O_WRONLY, 0o644)
				if err != nil {
					errs = append(errs, fmt.Errorf("GITHUB_STEP_SUMMARY: %w", err))
				} else {
					defer f.Close()
					cc.StepSummary = f
				}
			}
		}
		data, err := render(o.format, &cc)
		if err != nil {
			errs = append(errs, err)
			continue
		}
		out := s.out
		if o.format == "github" {
			out = s.rawOut // workflow commands, each field escaped by report.GitHub
		} else if !o.toStdout() {
			data = report.Guarded(data)
		}
		if o.toStdout() {
			_, err = out.Write(data)
		} else {
			err = writeOutputFile(o.file, data)
		}
		if err != nil {
			errs = append(errs, fmt.Errorf("--format %s: %w", o.format, err))
		}
	}
	return errors.Join(errs...)
}
