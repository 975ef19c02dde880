package rules

import (
	"fmt"
	"strings"

	"github.com/bucketlint/bucketlint/plan"
	"github.com/bucketlint/bucketlint/simulate"
	"github.com/bucketlint/bucketlint/workload"
)

func bl308() *Rule {
	return &Rule{
		ID:    "BL308",
		Name:  "broadcast-beats-bucketing",
		Title: "a join side small enough to broadcast, which needs no shuffle and no bucketing",
		Doc: "A broadcast hash join ships the small side to every executor and reads the big side where it\n" +
			"lies: no Exchange on either side, whatever the bucketing. When one side of a bucketed join is\n" +
			"small (under `spark.sql.autoBroadcastJoinThreshold`, or 10 MiB when that is -1 — set\n" +
			"`broadcast_bytes` in .bucketlint.yaml to change it) but the join is still planned as a\n" +
			"sort-merge join — because the threshold is disabled, statistics are missing, or the join type\n" +
			"cannot build that side — broadcasting beats any bucket layout, and bucketing the small table\n" +
			"only costs write time.\n\n" +
			"Hint the broadcast (`/*+ BROADCAST(c) */`, `broadcast(df)`), or keep statistics current\n" +
			"(`ANALYZE TABLE … COMPUTE STATISTICS`). The rule needs the table's size; it is silent for\n" +
			"joins already broadcast and for sides the join type cannot broadcast (the left side of a\n" +
			"left outer join, either side of a full outer join)." + suppressDoc("BL308"),
		Bad:      "SET spark.sql.autoBroadcastJoinThreshold=-1;\n-- countries: 40 KiB\nSELECT * FROM orders o JOIN countries c ON o.country = c.code;",
		Good:     "SELECT /*+ BROADCAST(c) */ * FROM orders o JOIN countries c ON o.country = c.code;",
		Spark:    "3.0–4.x",
		Since:    "0.1.0",
		Severity: Info,
		Default:  true,
		Run:      runBL308,
	}
}

func runBL308(p *Pass) error {
	for _, s := range p.joinSites() {
		if s.Broadcast || (!isBucketed(s.Left.Table) && !isBucketed(s.Right.Table)) {
			continue
		}
		if !s.Known && p.OptionsAt(s.Span.Start).BroadcastThreshold() > 0 {
			// Unsimulated: Spark broadcasts on its own when the size is under the threshold.
			continue
		}
		for i, small := range s.Sides() {
			if !s.Sides()[i].Causes.Has(simulate.CauseJoinStrategy) {
				continue
			}
			big := s.Sides()[1-i]
			thr := "spark.sql.autoBroadcastJoinThreshold is -1"
			if t := p.OptionsAt(s.Span.Start).BroadcastThreshold(); t > 0 {
				thr = "spark.sql.autoBroadcastJoinThreshold is " + plan.FormatBytes(t)
			}
			hint := fmt.Sprintf("Hint the broadcast: /*+ BROADCAST(%s) */", relName(small))
			if s.Kind == workload.CodeSite {
				hint = fmt.Sprintf("Broadcast the small side: broadcast(%s) in the join", relName(small))
			}
			p.Report(Diagnostic{
				Span: s.Span,
				Message: fmt.Sprintf("%s (%s) is small enough to broadcast: a broadcast hash join with %s needs no shuffle and no bucketing, but the join %s; %s (%s)",
					small.Table.Name, plan.FormatBytes(small.Table.SizeInBytes), big.Label, plannedAs(s), thr, p.spark()),
				Related: bucketRelated(small.Table),
				Fix:     &Fix{Description: hint},
			})
			break
		}
	}
	return nil
}

// relName is the name a hint uses for a side: its last name part.
func relName(s *workload.Side) string {
	n := s.Label
	return n[strings.LastIndex(n, ".")+1:]
}

// plannedAs says how a join is planned: "is a SortMergeJoin", "shuffles a".
func plannedAs(s *workload.Site) string {
	if s.Node != nil {
		return "is planned as " + s.Node.Info().Name
	}
	return shuffledText(s, nil)
}
