package main

import (
	"context"
	"fmt"
	"sort"

	"github.com/bucketlint/bucketlint/advise"
	"github.com/bucketlint/bucketlint/evidence"
	"github.com/bucketlint/bucketlint/plan"
	"github.com/bucketlint/bucketlint/rules"
	"github.com/bucketlint/bucketlint/workload"
)

// attachEvidence reads the event logs at path or History Server URL (check --evidence) and gives each finding on a
// join what the join's shuffles cost in the logs' runs: the join site the finding is at (its
// span, a side's or a related span at or within the site's) and the shuffles that shuffle
// one of the site's tables on exactly its key columns into a join. A finding on an
// aggregation or a window (rules.Grouping) gets the shuffles of its table on exactly its
// grouping columns into an aggregate or a window. Findings are then ranked by measured
// bytes, costliest first, the others after them in their order.
func attachEvidence(ctx context.Context, path string, diags []rules.Diagnostic, w *workload.Workload, broadcast int64, s *streams) error {
	ev, errs := readEvidence(ctx, []string{path})
	for _, e := range errs {
		fmt.Fprintln(s.err, e)
	}
	if len(errs) > 0 {
		return &parseFailure{count: len(errs)}
	}
	sites := w.Sites(broadcast)
	for i := range diags {
		site := siteOf(&diags[i], sites)
		if site == nil {
			measureGrouping(ev, &diags[i])
			continue
		}
		var sides []evidence.Side
		for _, sd := range site.Sides() {
			if sd.Table == nil {
				continue
			}
			cols := make([]string, 0, len(sd.Keys))
			for _, k := range sd.Keys {
				if k.Column == "" {
					cols = nil
					break
				}
				cols = append(cols, k.Column)
			}
			if len(cols) > 0 {
				sides = append(sides, evidence.Side{Table: sd.Table.Name, Columns: cols})
			}
		}
		if m, ok := ev.Measure(sides...); ok {
			diags[i].Measured = &rules.Measured{Bytes: m.Bytes, Records: m.Records, TimeNs: m.TimeNs, Runs: m.Runs, Apps: m.Apps}
		}
	}
	sort.SliceStable(diags, func(i, j int) bool { return measuredBytes(&diags[i]) > measuredBytes(&diags[j]) })
	return nil
}

// measureGrouping gives a finding on an aggregation or a window what its shuffles cost.
func measureGrouping(ev *evidence.Evidence, d *rules.Diagnostic) {
	g := d.Grouping
	if g == nil || len(g.Columns) == 0 {
		return
	}
	if m, ok := ev.MeasureFor(g.What, evidence.Side{Table: g.Table, Columns: g.Columns}); ok {
		what := "aggregation"
		if g.What == "window" {
			what = "window"
		}
		d.Measured = &rules.Measured{What: what, Bytes: m.Bytes, Records: m.Records, TimeNs: m.TimeNs, Runs: m.Runs, Apps: m.Apps}
	}
}

// measureIn is advise's look-up of what a join or an aggregation cost in the logs read: the
// shuffles of one of its tables on exactly that table's keys, into a join or an aggregate.
func measureIn(ev *evidence.Evidence) func(advise.Shuffled) (advise.Measure, bool) {
	return func(s advise.Shuffled) (advise.Measure, bool) {
		sides := make([]evidence.Side, 0, len(s.Tables))
		for i, t := range s.Tables {
			if i < len(s.Keys) {
				sides = append(sides, evidence.Side{Table: t, Columns: s.Keys[i]})
			}
		}
		m, ok := ev.MeasureFor(s.What, sides...)
		return advise.Measure{Bytes: m.Bytes, Runs: m.Runs}, ok
	}
}

func measuredBytes(d *rules.Diagnostic) int64 {
	if d.Measured == nil {
		return -1
	}
	return d.Measured.Bytes
}

// siteOf returns the join site a finding is about: the first site whose span, or a side's
// span, holds the finding's span or one of its related spans.
func siteOf(d *rules.Diagnostic, sites []*workload.Site) *workload.Site {
	spans := []plan.Span{d.Span}
	for _, r := range d.Related {
		spans = append(spans, r.Span)
	}
	for _, site := range sites {
		for _, sp := range spans {
			if within(sp, site.Span) || within(sp, site.Left.Span) || within(sp, site.Right.Span) {
				return site
			}
		}
	}
	return nil
}

// within reports whether span a lies inside span b (same file, b's start at or before a's,
// a's end at or before b's).
func within(a, b plan.Span) bool {
	if a.Start.File != b.Start.File || !b.Start.IsValid() || !a.Start.IsValid() {
		return false
	}
	end := a.End
	if !end.IsValid() {
		end = a.Start
	}
	bEnd := b.End
	if !bEnd.IsValid() {
		bEnd = b.Start
	}
	return !a.Start.Before(b.Start) && !bEnd.Before(end)
}
