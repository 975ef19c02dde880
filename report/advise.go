package report

import (
	"encoding/json"
	"fmt"
	"io"
	"sort"
	"strings"

	"github.com/bucketlint/bucketlint/advise"
	"github.com/bucketlint/bucketlint/plan"
)

// WriteAdviseText writes the advice of `bucketlint advise`: a one-line summary, then per
// table the layout, why, the settings it needs, the shuffles it removes, each workload query
// before and after, and the rewrite as PySpark, Scala and SQL. workload is the workload the
// recommendations were made for; their query indexes point into it.
func WriteAdviseText(w io.Writer, workload []advise.WeightedQuery, recs []advise.Recommendation) error {
	var b strings.Builder
	if len(recs) == 0 {
		b.WriteString("no layout change removes a shuffle from this workload\n")
	} else {
		b.WriteString(adviseSummary(recs) + "\n\n")
	}
	for i, r := range recs {
		if i > 0 {
			b.WriteString("\n")
		}
		writeRecommendation(&b, workload, r)
	}
	_, err := io.WriteString(w, b.String())
	return err
}

// writeRecommendation writes one table's advice.
func writeRecommendation(b *strings.Builder, workload []advise.WeightedQuery, r advise.Recommendation) {
	if r.Bucket == nil {
		fmt.Fprintf(b, "%s: leave unbucketed\n  why: %s\n", r.Table, r.Reason)
		return
	}
	if r.Keep {
		fmt.Fprintf(b, "%s: keep %s (no rewrite)\n  why: %s\n", r.Table, specText(r.Bucket), r.Reason)
	} else {
		fmt.Fprintf(b, "%s: %s\n  why: %s\n", r.Table, specText(r.Bucket), r.Reason)
	}
	if len(r.Confs) > 0 {
		fmt.Fprintf(b, "  settings: %s\n", confsText(r.Confs))
	}
	fmt.Fprintf(b, "  shuffles removed: %d\n", r.ShufflesRemoved)
	if r.Evidence {
		writeMeasured(b, r)
	}
	for _, f := range r.Fixes {
		fmt.Fprintf(b, "  fixes %s%s\n", f, fixMeasured(r, f))
	}
	for _, o := range r.Queries {
		fmt.Fprintf(b, "  query %d (%s): %d exchange(s), %d sort(s) before; %d exchange(s), %d sort(s) after\n",
			o.Index+1, workload[o.Index].Query.Span.Start, o.Before.Exchanges, o.Before.Sorts, o.After.Exchanges, o.After.Sorts)
	}
	for _, c := range []struct{ name, code string }{{"PySpark", r.Code.PySpark}, {"Scala", r.Code.Scala}, {"SQL", r.Code.SQL}, {"SQL, as one CREATE TABLE … AS SELECT", r.Code.CTAS}} {
		if c.code == "" || c.name != "SQL" && c.code == r.Code.SQL {
			continue // a table whose columns are not known has only the CREATE TABLE … AS SELECT
		}
		fmt.Fprintf(b, "  %s:\n", c.name)
		for _, ln := range strings.Split(strings.TrimRight(c.code, "\n"), "\n") {
			b.WriteString("    " + ln + "\n")
		}
	}
}

// writeMeasured says, for advice weighed by event logs, which figures the logs measured and
// which are estimates: the shuffle bytes the layout removes, and the data it rewrites.
func writeMeasured(b *strings.Builder, r advise.Recommendation) {
	if r.MeasuredBytes > 0 {
		fmt.Fprintf(b, "  measured: the shuffles it removes wrote %s in the event logs\n", plan.FormatBytes(r.MeasuredBytes))
	} else {
		b.WriteString("  measured: none of the shuffles it removes ran in the event logs\n")
	}
	if r.Bucket != nil && !r.Keep && r.RewriteBytes > 0 {
		how := "the table's size"
		if r.RewriteEstimated {
			how = "estimated: the table's size is not known"
		}
		fmt.Fprintf(b, "  rewrites: %s (%s)\n", plan.FormatBytes(r.RewriteBytes), how)
	}
}

// fixMeasured is what a fix's join or aggregation cost in the event logs, for advice weighed
// by them.
func fixMeasured(r advise.Recommendation, f advise.Fix) string {
	switch {
	case !r.Evidence:
		return ""
	case f.Measured == nil:
		return " (not in the event logs)"
	}
	return fmt.Sprintf(" (measured: %s shuffled across %s)", plan.FormatBytes(f.Measured.Bytes), plural(f.Measured.Runs, "run"))
}

// specText is a bucket spec as DDL clauses: CLUSTERED BY (…) SORTED BY (…) INTO n BUCKETS.
func specText(b *plan.BucketSpec) string {
	s := "CLUSTERED BY (" + strings.Join(b.Columns, ", ") + ")"
	if len(b.SortColumns) > 0 {
		s += " SORTED BY (" + strings.Join(b.SortColumns, ", ") + ")"
	}
	return s + fmt.Sprintf(" INTO %d BUCKETS", b.NumBuckets)
}

// adviseSummary is the advice in one line: the tables rewritten, kept, broadcast, and the
// settings it needs.
func adviseSummary(recs []advise.Recommendation) string {
	var rewrite, keep, plain []string
	confs := map[string]string{}
	for _, r := range recs {
		switch {
		case r.Bucket == nil:
			plain = append(plain, r.Table)
		case r.Keep:
			keep = append(keep, r.Table)
		default:
			rewrite = append(rewrite, fmt.Sprintf("%s into %d buckets", r.Table, r.Bucket.NumBuckets))
		}
		for k, v := range r.Confs {
			confs[k] = v
		}
	}
	var parts []string
	if len(rewrite) > 0 {
		parts = append(parts, "rewrite "+strings.Join(rewrite, ", "))
	} else {
		parts = append(parts, "rewrite nothing")
	}
	if len(keep) > 0 {
		parts = append(parts, "keep "+strings.Join(keep, ", "))
	}
	if len(plain) > 0 {
		parts = append(parts, "leave unbucketed "+strings.Join(plain, ", "))
	}
	if len(confs) > 0 {
		parts = append(parts, "set "+confsText(confs))
	}
	return "advice: " + strings.Join(parts, "; ")
}

// confsText lists settings as key=value, sorted by key.
func confsText(confs map[string]string) string {
	keys := make([]string, 0, len(confs))
	for k := range confs {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for i, k := range keys {
		keys[i] = k + "=" + confs[k]
	}
	return strings.Join(keys, ", ")
}

type adviseCountsJSON struct {
	Exchanges int `json:"exchanges"`
	Sorts     int `json:"sorts"`
}

type adviseQueryJSON struct {
	Index  int              `json:"index"`
	Before adviseCountsJSON `json:"before"`
	After  adviseCountsJSON `json:"after"`
}

type adviseBucketJSON struct {
	NumBuckets  int      `json:"numBuckets"`
	Columns     []string `json:"columns"`
	SortColumns []string `json:"sortColumns"`
}

type adviseRecJSON struct {
	Table           string            `json:"table"`
	Bucket          *adviseBucketJSON `json:"bucket"`
	CastColumns     map[string]string `json:"castColumns"`
	Keep            bool              `json:"keep"`
	Confs           map[string]string `json:"confs"`
	RewriteBytes    int64             `json:"rewriteBytes"`
	Reason          string            `json:"reason"`
	ShufflesRemoved int               `json:"shufflesRemoved"`
	Fixes           []string          `json:"fixes"`
	Queries         []adviseQueryJSON `json:"queries"`
	Code            map[string]string `json:"code"`
	// Measured is set for advice weighed by event logs (advise --evidence).
	Measured *adviseMeasuredJSON `json:"measured,omitempty"`
}

// adviseMeasuredJSON is what the event logs measured of one table's advice: the shuffle bytes
// its layout removes, each fix's measure (null when not in the logs), and whether the
// rewrite's size is an estimate.
type adviseMeasuredJSON struct {
	Bytes            int64               `json:"bytes"`
	Fixes            []*adviseFixMeasure `json:"fixes"`
	RewriteEstimated bool                `json:"rewriteEstimated"`
}

type adviseFixMeasure struct {
	Bytes int64 `json:"bytes"`
	Runs  int   `json:"runs"`
}

// WriteAdviseJSON writes the advice as {"recommendations": [...]}: per table the layout (null
// when it is left unbucketed), casts, settings, reason, fixes, the queries' Exchange and Sort
// counts before and after, and the code ("pyspark", "scala", "sql", "sqlCtas") when the table
// is rewritten.
func WriteAdviseJSON(w io.Writer, recs []advise.Recommendation) error {
	out := struct {
		Recommendations []adviseRecJSON `json:"recommendations"`
	}{Recommendations: []adviseRecJSON{}}
	for _, r := range recs {
		out.Recommendations = append(out.Recommendations, recommendationJSON(r))
	}
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	enc.SetEscapeHTML(false)
	return enc.Encode(out)
}

// recommendationJSON is one table's advice as JSON, empty lists and maps rather than null.
func recommendationJSON(r advise.Recommendation) adviseRecJSON {
	rj := adviseRecJSON{Table: r.Table, CastColumns: r.CastColumns, Keep: r.Keep, Confs: r.Confs, RewriteBytes: r.RewriteBytes, Reason: r.Reason, ShufflesRemoved: r.ShufflesRemoved, Fixes: []string{}, Queries: []adviseQueryJSON{}}
	if rj.CastColumns == nil {
		rj.CastColumns = map[string]string{}
	}
	if rj.Confs == nil {
		rj.Confs = map[string]string{}
	}
	if r.Bucket != nil {
		rj.Bucket = &adviseBucketJSON{NumBuckets: r.Bucket.NumBuckets, Columns: r.Bucket.Columns, SortColumns: orEmpty(r.Bucket.SortColumns)}
		if !r.Keep {
			rj.Code = map[string]string{"pyspark": r.Code.PySpark, "scala": r.Code.Scala, "sql": r.Code.SQL, "sqlCtas": r.Code.CTAS}
		}
	}
	for _, f := range r.Fixes {
		rj.Fixes = append(rj.Fixes, f.String())
	}
	if r.Evidence {
		rj.Measured = &adviseMeasuredJSON{Bytes: r.MeasuredBytes, Fixes: []*adviseFixMeasure{}, RewriteEstimated: r.RewriteEstimated}
		for _, f := range r.Fixes {
			var m *adviseFixMeasure
			if f.Measured != nil {
				m = &adviseFixMeasure{Bytes: f.Measured.Bytes, Runs: f.Measured.Runs}
			}
			rj.Measured.Fixes = append(rj.Measured.Fixes, m)
		}
	}
	for _, o := range r.Queries {
		rj.Queries = append(rj.Queries, adviseQueryJSON{Index: o.Index, Before: adviseCountsJSON{o.Before.Exchanges, o.Before.Sorts}, After: adviseCountsJSON{o.After.Exchanges, o.After.Sorts}})
	}
	return rj
}
