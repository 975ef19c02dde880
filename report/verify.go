//go:build engine

package report

import (
	"encoding/json"
	"fmt"
	"io"
	"maps"
	"slices"
	"strings"
	"time"

	"github.com/bucketlint/bucketlint/engine/verify"
	"github.com/bucketlint/bucketlint/plan"
)

// verifySideJSON is one run of a scenario in `verify --format json`.
type verifySideJSON struct {
	Exchanges          int   `json:"exchanges"`
	PredictedExchanges int   `json:"predictedExchanges"`
	ShuffledRows       int64 `json:"shuffledRows"`
	ShuffledBytes      int64 `json:"shuffledBytes"`
	Millis             int64 `json:"millis"`
}

type sparkSideJSON struct {
	Exchanges int    `json:"exchanges"`
	Checksum  string `json:"checksum"`
	Millis    int64  `json:"millis"`
}

type sparkJSON struct {
	Version string        `json:"version"`
	Before  sparkSideJSON `json:"before"`
	After   sparkSideJSON `json:"after"`
	Agrees  bool          `json:"agrees"`
}

// verifyScenarioJSON is one scenario (DESIGN.md §4).
type verifyScenarioJSON struct {
	Name       string                   `json:"name"`
	Query      string                   `json:"query"`
	Before     verifySideJSON           `json:"before"`
	After      verifySideJSON           `json:"after"`
	Layout     map[string]verify.Layout `json:"layout"`
	Settings   map[string]string        `json:"settings,omitempty"`
	Identical  bool                     `json:"identical"`
	Reproduced bool                     `json:"reproduced"`
	Diff       string                   `json:"diff,omitempty"`
	Rows       int64                    `json:"rows"`
	InputRows  map[string]int64         `json:"inputRows"`
	Checksum   string                   `json:"checksum"`
	Engine     string                   `json:"engine"`
	Spark      *sparkJSON               `json:"spark"`
	Notes      []string                 `json:"notes"`
	Error      string                   `json:"error,omitempty"`
}

// VerifyOptions control the verify writers.
type VerifyOptions struct {
	// NoTiming leaves times out (0 in JSON), for reproducible output.
	NoTiming bool
}

func (o VerifyOptions) millis(d time.Duration) int64 {
	if o.NoTiming {
		return 0
	}
	return d.Milliseconds()
}

func (o VerifyOptions) sideJSON(s verify.Side) verifySideJSON {
	return verifySideJSON{
		Exchanges: s.Exchanges, PredictedExchanges: s.Predicted, ShuffledRows: s.ShuffledRows,
		ShuffledBytes: s.ShuffledBytes, Millis: o.millis(s.Duration),
	}
}

// WriteVerifyJSON writes the results of `verify` as JSON (DESIGN.md §4): one object per
// scenario under "scenarios".
func WriteVerifyJSON(w io.Writer, results []verify.Result, opt VerifyOptions) error {
	out := struct {
		Scenarios []verifyScenarioJSON `json:"scenarios"`
	}{Scenarios: []verifyScenarioJSON{}}
	for i := range results {
		r := &results[i]
		j := verifyScenarioJSON{
			Name: r.Name, Query: r.Query, Before: opt.sideJSON(r.Before), After: opt.sideJSON(r.After),
			Layout: r.Layout, Settings: r.Settings, Identical: r.Identical, Reproduced: r.Reproduced(), Diff: r.Diff, Rows: r.Rows,
			InputRows: r.InputRows, Checksum: r.After.Checksum.String(), Engine: "embedded", Notes: r.Notes,
		}
		if r.Engine != "" {
			j.Engine = r.Engine
		}
		if r.Spark != nil {
			j.Engine = "spark"
			j.Spark = &sparkJSON{
				Version: r.Spark.Version, Agrees: r.Spark.Agrees(),
				Before: sparkSideJSON{Exchanges: r.Spark.Before.Exchanges, Checksum: r.Spark.Before.Checksum.String(), Millis: r.Spark.Before.Millis},
				After:  sparkSideJSON{Exchanges: r.Spark.After.Exchanges, Checksum: r.Spark.After.Checksum.String(), Millis: r.Spark.After.Millis},
			}
			if opt.NoTiming {
				j.Spark.Before.Millis, j.Spark.After.Millis = 0, 0
			}
		}
		out.Scenarios = append(out.Scenarios, j)
	}
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	enc.SetEscapeHTML(false)
	return enc.Encode(out)
}

// WriteVerifyText writes the results of `verify` for people: per scenario a mark, the query,
// the layouts, the data, a before/after table of Exchanges, rows and bytes shuffled and time,
// whether the results are identical and what real Spark said; then a summary line.
func WriteVerifyText(w io.Writer, results []verify.Result, opt VerifyOptions) error {
	var b strings.Builder
	if len(results) == 0 {
		b.WriteString("nothing to verify: no layout change removes a shuffle from this workload\n")
	}
	failed, notRun := 0, 0
	for i := range results {
		r := &results[i]
		if i > 0 {
			b.WriteString("\n")
		}
		mark := "✓"
		switch {
		case r.Error != "":
			mark, notRun = "✗", notRun+1
		case !r.Reproduced():
			mark, failed = "✗", failed+1
		}
		fmt.Fprintf(&b, "%s %s\n", mark, r.Name)
		fmt.Fprintf(&b, "  query      %s\n", firstLine(r.Query))
		if r.Error != "" {
			fmt.Fprintf(&b, "  not run    %s\n", r.Error)
			continue
		}
		writeVerifyResult(&b, r, opt)
	}
	if len(results) > 0 {
		fmt.Fprintf(&b, "\n%d of %d verified", len(results)-failed-notRun, len(results))
		if failed > 0 {
			fmt.Fprintf(&b, "; %d did not reproduce", failed)
		}
		if notRun > 0 {
			fmt.Fprintf(&b, "; %d not run", notRun)
		}
		b.WriteString("\n")
	}
	_, err := io.WriteString(w, b.String())
	return err
}

// writeVerifyResult writes the body of one scenario that ran.
func writeVerifyResult(b *strings.Builder, r *verify.Result, opt VerifyOptions) {
	for _, t := range slices.Sorted(maps.Keys(r.Layout)) {
		fmt.Fprintf(b, "  layout     %s: %s\n", t, layoutText(r.Layout[t]))
	}
	if len(r.Settings) > 0 {
		var kv []string
		for _, k := range slices.Sorted(maps.Keys(r.Settings)) {
			kv = append(kv, k+"="+r.Settings[k])
		}
		fmt.Fprintf(b, "  settings   %s (after)\n", strings.Join(kv, ", "))
	}
	fmt.Fprintf(b, "  data       %s\n", inputText(r.InputRows))
	fmt.Fprintf(b, "  %-15s %14s    %14s\n", "", "before", "after")
	fmt.Fprintf(b, "  %-15s %14d  → %14d   (predicted %d → %d)\n", "exchanges", r.Before.Exchanges, r.After.Exchanges, r.Before.Predicted, r.After.Predicted)
	if r.Engine != "spark-connect" { // Spark Connect reports no shuffle sizes
		fmt.Fprintf(b, "  %-15s %14s  → %14s\n", "rows shuffled", thousands(r.Before.ShuffledRows), thousands(r.After.ShuffledRows))
		fmt.Fprintf(b, "  %-15s %14s  → %14s\n", "bytes shuffled", plan.FormatBytes(r.Before.ShuffledBytes), plan.FormatBytes(r.After.ShuffledBytes))
	}
	if !opt.NoTiming {
		fmt.Fprintf(b, "  %-15s %14s  → %14s\n", "time", durText(r.Before.Duration), durText(r.After.Duration))
	}
	switch {
	case r.Identical && r.Rows == 0:
		b.WriteString("  identical  ✓ but empty: both runs returned no rows, which proves nothing; give the\n" +
			"             filtered columns values in a scenario file (fixtures/verify/README.md)\n")
	case r.Identical:
		fmt.Fprintf(b, "  identical  ✓ %s result rows, checksum %s\n", thousands(r.Rows), r.After.Checksum)
	default:
		fmt.Fprintf(b, "  identical  ✗ %s\n", r.Diff)
	}
	if r.Spark != nil {
		sm := "✓"
		if !r.Spark.Agrees() {
			sm = "✗"
		}
		fmt.Fprintf(b, "  spark %s  %s exchanges %d → %d (predicted %d → %d), checksums %s / %s\n", r.Spark.Version, sm,
			r.Spark.Before.Exchanges, r.Spark.After.Exchanges, r.Spark.PredictedBefore, r.Spark.PredictedAfter,
			r.Spark.Before.Checksum, r.Spark.After.Checksum)
		if !opt.NoTiming {
			fmt.Fprintf(b, "  spark time %s → %s\n", durText(time.Duration(r.Spark.Before.Millis)*time.Millisecond), durText(time.Duration(r.Spark.After.Millis)*time.Millisecond))
		}
	}
	for _, n := range r.Notes {
		fmt.Fprintf(b, "  note       %s\n", n)
	}
	if r.Identical && r.After.Exchanges >= r.Before.Exchanges {
		b.WriteString("  the shuffle is still there after the layout change\n")
	}
}

// layoutText prints an advised layout as DDL: "CLUSTERED BY (k) INTO 8 BUCKETS, k as bigint".
func layoutText(l verify.Layout) string {
	if l.Buckets == 0 {
		return "unbucketed"
	}
	s := "CLUSTERED BY (" + strings.Join(l.Columns, ", ") + ")"
	if len(l.SortedBy) > 0 {
		s += " SORTED BY (" + strings.Join(l.SortedBy, ", ") + ")"
	}
	s += fmt.Sprintf(" INTO %d BUCKETS", l.Buckets)
	for _, c := range slices.Sorted(maps.Keys(l.Types)) {
		s += fmt.Sprintf(", %s as %s", c, l.Types[c])
	}
	return s
}

func inputText(m map[string]int64) string {
	parts := make([]string, 0, len(m))
	for _, k := range slices.Sorted(maps.Keys(m)) {
		parts = append(parts, fmt.Sprintf("%s %s rows", k, thousands(m[k])))
	}
	return strings.Join(parts, ", ")
}

// firstLine is a query on one line, cut to 100 bytes.
func firstLine(q string) string {
	q = strings.Join(strings.Fields(q), " ")
	if len(q) > 100 {
		q = q[:97] + "…"
	}
	return q
}

func durText(d time.Duration) string {
	if d < time.Second {
		return fmt.Sprintf("%d ms", d.Milliseconds())
	}
	return fmt.Sprintf("%.2f s", d.Seconds())
}

// ProgressLine renders one line of verify's progress bar: a bar of the steps done, the
// elapsed time and what is being done, cut to fit a 100-column terminal.
func ProgressLine(p verify.Progress, elapsed time.Duration) string {
	const width = 20
	var b strings.Builder
	if p.Total > 0 {
		filled := min(width*p.Done/p.Total, width)
		b.WriteString("[")
		b.WriteString(strings.Repeat("█", filled))
		b.WriteString(strings.Repeat("░", width-filled))
		fmt.Fprintf(&b, "] %3d%% ", 100*min(p.Done, p.Total)/p.Total)
	}
	fmt.Fprintf(&b, "%5.1fs  ", elapsed.Seconds())
	line := b.String() + p.Msg
	if p.Scenario != "" {
		line += " · " + p.Scenario
	}
	if r := []rune(line); len(r) > 100 {
		line = string(r[:99]) + "…"
	}
	return line
}

// Verifications turns the verify results of findings (one per finding, nil for a finding not
// verified; verify.ProveAt) into Check.Verified, one Verification per result, and counts the
// findings whose result did not reproduce.
func Verifications(results []*verify.Result) (out []*Verification, failed int) {
	out = make([]*Verification, len(results))
	seen := map[*verify.Result]*Verification{}
	for i, r := range results {
		if r == nil {
			continue
		}
		v, ok := seen[r]
		if !ok {
			v = &Verification{
				Scenario: r.Name, Identical: r.Identical, Reproduced: r.Reproduced(),
				ExchangesBefore: r.Before.Exchanges, ExchangesAfter: r.After.Exchanges,
				ShuffledRowsBefore: r.Before.ShuffledRows, ShuffledRowsAfter: r.After.ShuffledRows,
				ShuffledBytesBefore: r.Before.ShuffledBytes, ShuffledBytesAfter: r.After.ShuffledBytes,
			}
			seen[r] = v
		}
		out[i] = v
		if !v.Reproduced {
			failed++
		}
	}
	return out, failed
}
