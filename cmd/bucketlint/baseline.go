package main

import (
	"encoding/json"
	"fmt"
	"sort"

	"github.com/bucketlint/bucketlint/internal/readcap"
	"github.com/bucketlint/bucketlint/rules"
)

// A baselineFile records accepted findings by fingerprint (report.Fingerprint: rule, file
// and message without positions; the file named from the repository root, rebaser.fingerprint),
// so that CI fails only on new ones, moving lines changes nothing, and a run from a
// subdirectory matches. Rule, file and message are kept for people reading the file.
type baselineFile struct {
	Tool     string          `json:"tool"`
	Version  int             `json:"version"`
	Findings []baselineEntry `json:"findings"`
}

type baselineEntry struct {
	Fingerprint string `json:"fingerprint"`
	Rule        string `json:"rule"`
	File        string `json:"file"`
	Message     string `json:"message"`
}

// readBaseline reads a baseline (a regular file of at most limit bytes) as a multiset of
// fingerprints.
func readBaseline(file string, limit int64) (map[string]int, error) {
	src, err := readcap.File(file, limit)
	if err != nil {
		return nil, &configError{msg: fmt.Sprintf("baseline: %s: %s", file, readcap.Message(err))}
	}
	var b baselineFile
	if err := json.Unmarshal(src, &b); err != nil {
		return nil, &configError{msg: fmt.Sprintf("baseline %s: %v", file, err)}
	}
	if b.Version != 1 {
		return nil, &configError{msg: fmt.Sprintf("baseline %s: version %d; want 1 (rewrite it with --write-baseline)", file, b.Version)}
	}
	counts := map[string]int{}
	for _, e := range b.Findings {
		counts[e.Fingerprint]++
	}
	return counts, nil
}

// writeBaseline records the findings, sorted so that the file diffs well. Input errors
// (BL901) are never accepted into a baseline.
func writeBaseline(file string, ds []rules.Diagnostic, r *rebaser) error {
	b := baselineFile{Tool: "bucketlint", Version: 1, Findings: []baselineEntry{}}
	for i := range ds {
		if ds[i].Rule == rules.ParseErrorID {
			continue
		}
		b.Findings = append(b.Findings, baselineEntry{
			Fingerprint: r.fingerprint(&ds[i]), Rule: ds[i].Rule,
			File: r.path(ds[i].Span.Start.File), Message: ds[i].Message,
		})
	}
	sort.SliceStable(b.Findings, func(i, j int) bool {
		x, y := b.Findings[i], b.Findings[j]
		if x.File != y.File {
			return x.File < y.File
		}
		if x.Rule != y.Rule {
			return x.Rule < y.Rule
		}
		return x.Fingerprint < y.Fingerprint
	})
	out, err := json.MarshalIndent(b, "", "  ")
	if err != nil {
		return err
	}
	if err := writeOutputFile(file, append(out, '\n')); err != nil {
		return fmt.Errorf("writing baseline: %w", err)
	}
	return nil
}

// applyBaseline drops the findings the baseline accepts, each entry accepting one finding,
// and returns how many it dropped.
func applyBaseline(ds []rules.Diagnostic, accepted map[string]int, r *rebaser) ([]rules.Diagnostic, int) {
	if accepted == nil {
		return ds, 0
	}
	left := make(map[string]int, len(accepted))
	for k, v := range accepted {
		left[k] = v
	}
	out := ds[:0]
	dropped := 0
	for i := range ds {
		fp := r.fingerprint(&ds[i])
		if ds[i].Rule != rules.ParseErrorID && left[fp] > 0 {
			left[fp]--
			dropped++
			continue
		}
		out = append(out, ds[i])
	}
	return out, dropped
}
