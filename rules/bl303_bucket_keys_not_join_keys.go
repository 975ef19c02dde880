package rules

import (
	"fmt"
	"strings"

	"github.com/bucketlint/bucketlint/plan"
	"github.com/bucketlint/bucketlint/simulate"
	"github.com/bucketlint/bucketlint/workload"
)

func bl303() *Rule {
	return &Rule{
		ID:    "BL303",
		Name:  "bucket-keys-not-join-keys",
		Title: "bucket columns that differ from, or are a subset or superset of, the join keys",
		Doc: "A bucketed side avoids its shuffle only when its bucket columns are exactly the join keys (in\n" +
			"any order of the ON clause). Bucketed by `(a, b)` and joined on `a`: `hash(a, b)` says nothing\n" +
			"about where the rows of one `a` are, so the side is shuffled. Bucketed by `(a)` and joined on\n" +
			"`(a, b)`: Spark 3.3+ also shuffles by default, because\n" +
			"`spark.sql.requireAllClusterKeysForCoPartition` (internal, default true) lets a side impose its\n" +
			"layout only when it is partitioned on all the join keys; with that set to false and both sides\n" +
			"bucketed alike, the join is shuffle-free, and the rule is then silent for simulated joins.\n\n" +
			"Bucket the table on the columns it is joined on, or join on all its bucket columns. A\n" +
			"partition column cannot be a bucket column, so the fix never proposes one: when a join key is\n" +
			"a partition column, join on the bucket columns only, or — when both sides are bucketed alike\n" +
			"on a subset of the keys and the simulated join then needs no shuffle — set\n" +
			"`spark.sql.requireAllClusterKeysForCoPartition=false` (3.3+). A suggested layout keeps the\n" +
			"table's bucket count when its size is unknown, and its column comments. The rule\n" +
			"stays silent when the other side is small enough to broadcast (BL308 covers that) or when a\n" +
			"broadcast is hinted.\n\n" +
			"A join of a table bucketed for other joins to an unbucketed table on another key is often a\n" +
			"fact-to-dimension join that shuffles as expected: the finding is info unless bucketing on the\n" +
			"join keys is a plausible fix (the other side bucketed too, both sides known to be too large to\n" +
			"broadcast, or sizes unknown and the join repeated or weighted). It is info without a layout\n" +
			"when the table's bucketing serves another join (rebucketing would shuffle that one), when\n" +
			"this join is not a plausible fix and another join of the table on other keys is (a layout for\n" +
			"this one would contradict that join's advice), or when no join key can be a bucket column: an explanation of the shuffle, which `check` lists only\n" +
			"with `--explain` (`simulate` and `advise` explain every shuffle)." + suppressDoc("BL303"),
		Bad: "CREATE TABLE t1 (i INT, j INT) USING parquet CLUSTERED BY (i, j) INTO 8 BUCKETS;\n" +
			"CREATE TABLE t2 (i INT, j INT) USING parquet CLUSTERED BY (i, j) INTO 8 BUCKETS;\n" +
			"SELECT * FROM t1 JOIN t2 ON t1.i = t2.i;",
		Good: "CREATE TABLE t1 (i INT, j INT) USING parquet CLUSTERED BY (i, j) INTO 8 BUCKETS;\n" +
			"CREATE TABLE t2 (i INT, j INT) USING parquet CLUSTERED BY (i, j) INTO 8 BUCKETS;\n" +
			"SELECT * FROM t1 JOIN t2 ON t1.i = t2.i AND t1.j = t2.j;",
		Spark:    "3.0–4.x",
		Since:    "0.1.0",
		Severity: Warning,
		Default:  true,
		Run:      runBL303,
	}
}

func runBL303(p *Pass) error {
	for _, s := range p.joinSites() {
		said := map[string]bool{} // a self-join's two sides can say the same thing: once
		for i, side := range s.Sides() {
			other := s.Sides()[1-i]
			if !s.Sides()[i].Causes.HasAny(simulate.CauseBucketKeysSubset, simulate.CauseBucketKeysSuperset, simulate.CauseBucketKeysDifferent) {
				continue
			}
			m := side.Match()
			b := side.Table.Buckets()
			bucket := "(" + strings.Join(b.Columns, ", ") + ")"
			keys := keyColumns(side.Keys)
			// Partition columns cannot be bucket columns (BL102): the layout proposed is the join
			// keys without them, and a key that is a partition column keeps the side a subset.
			cols, parts := withoutPartitionColumns(side.Table, keyCols(side.Keys))
			target := "(" + strings.Join(cols, ", ") + ")"
			// note explains why the proposed layout leaves out some join keys.
			note := ""
			if len(parts) > 0 {
				note = fmt.Sprintf(" (%s: a partition column of %s cannot also be a bucket column, BL102)", strings.Join(parts, ", "), side.Table.Name)
			}
			layout := cols
			var how, fix string
			switch m {
			case subsetKeys:
				how = fmt.Sprintf("its bucket columns %s are a subset of the join keys %s", bucket, keys)
				if len(parts) == 0 {
					fix = fmt.Sprintf("Bucket %s by all the join keys %s, or join on %s only", side.Table.Name, keys, bucket)
				} else {
					// Without the partition columns the keys cannot cover more than they do now.
					fix = fmt.Sprintf("Join on %s only%s", bucket, note)
					layout = nil
				}
			case supersetKeys:
				how = fmt.Sprintf("its bucket columns %s include columns that are not among the join keys %s", bucket, keys)
				fix = fmt.Sprintf("Join on all the bucket columns %s, or bucket %s by %s%s", bucket, side.Table.Name, target, note)
				if other.Table == nil || other.Table.Buckets() == nil {
					// Joining on more columns matches nothing the other side is bucketed by.
					fix = fmt.Sprintf("Bucket %s by %s%s", side.Table.Name, target, note)
				}
			default:
				how = fmt.Sprintf("it is bucketed on %s but joined on %s", bucket, keys)
				fix = fmt.Sprintf("Bucket %s by the join keys %s%s", side.Table.Name, target, note)
			}
			if len(cols) == 0 || sameColumns(cols, b.Columns) {
				layout = nil
			}
			if m == subsetKeys && p.Options.Behaviour().RequireAllClusterKeysConfs &&
				p.Workload.ShuffleFreeWith(s, map[string]string{simulate.ConfRequireAllCoPartition: "false"}) {
				fix = fmt.Sprintf("SET %s=false (Spark 3.3+): both sides are bucketed alike on %s, a subset of the join keys, and the join then needs no shuffle. Otherwise %s",
					simulate.ConfRequireAllCoPartition, bucket, strings.ToLower(fix[:1])+fix[1:])
			}
			d := Diagnostic{
				Span:    s.Span,
				Message: fmt.Sprintf("%s: %s, so the join %s (%s)", side.Label, how, shuffledText(s, side), p.spark()),
				Related: bucketRelated(side.Table),
				Fix:     &Fix{Description: p.withLayout(fix, s, side.Table, layout, p.adviseCount(s, side, other))},
			}
			switch {
			case len(cols) == 0 && m != subsetKeys && m != supersetKeys:
				// No join key can be a bucket column: no layout of this table removes the shuffle.
				d.Severity, d.Fix = Info, nil
				d.Message += fmt.Sprintf("; no bucket layout of %s removes it: its join keys %s are not columns it can be bucketed by%s", side.Table.Name, keys, note)
			case (m == differentKeys || m == supersetKeys) && p.layoutServes(s, side) != nil:
				// Another join reads this table by its bucket columns: rebucketing it for this
				// join would undo that one (and contradict the advice there); joining on all
				// of them is no fix either when the other side is not bucketed alike.
				at := p.layoutServes(s, side)
				d.Severity, d.Fix = Info, nil
				d.Message += fmt.Sprintf("; its bucketing on %s serves the join at %s, which another layout would shuffle instead", bucket, at.Span.Start)
			case !p.bucketingPlausible(s, side, other) && p.layoutWanted(s, side) != nil:
				// A layout for this join contradicts the one another join of the table calls
				// for (a repeated join, or one of large tables, on other keys; that join's
				// finding proposes it): nothing to change here.
				at := p.layoutWanted(s, side)
				d.Severity, d.Fix = Info, nil
				d.Message += fmt.Sprintf("; %s is not bucketed, its size is unknown and this join is not repeated, while the join at %s calls for a layout of %s on other keys", otherName(other), at.Span.Start, side.Table.Name)
			case !p.bucketingPlausible(s, side, other):
				d.Severity = Info
				d.Message += fmt.Sprintf("; %s is not bucketed, its size is unknown and this join is not repeated: the shuffle of a table bucketed for other joins, worth another layout only if this join is frequent and both sides are large", otherName(other))
			}
			if said[d.Message] {
				continue
			}
			said[d.Message] = true
			p.Report(d)
		}
	}
	return nil
}

// withoutPartitionColumns splits columns into those that can be bucket columns of t and
// those that are its partition columns.
func withoutPartitionColumns(t *plan.Table, cols []string) (bucketable, partition []string) {
	for _, c := range cols {
		if t != nil && containsFold(t.PartitionColumns, c) {
			partition = append(partition, c)
		} else {
			bucketable = append(bucketable, c)
		}
	}
	return bucketable, partition
}

// sameColumns reports whether two column lists hold the same names, as sets.
func sameColumns(a, b []string) bool {
	for _, c := range a {
		if !containsFold(b, c) {
			return false
		}
	}
	for _, c := range b {
		if !containsFold(a, c) {
			return false
		}
	}
	return true
}

// containsFold reports whether list holds s, ignoring case.
func containsFold(list []string, s string) bool {
	for _, x := range list {
		if strings.EqualFold(x, s) {
			return true
		}
	}
	return false
}

// bucketingPlausible reports whether bucketing side's table on the join keys is a plausible
// fix rather than a fact-to-dimension join that shuffles as expected. The side is bucketed,
// which is taken to mean large when its size is unknown; the fix is plausible when the other
// side is bucketed too, or known to be too large to broadcast (and the side is not known to
// be small), or of unknown size and joined so repeatedly: the same tables on the same keys at
// several places, or in a query of weight 2 or more.
func (p *Pass) bucketingPlausible(s *workload.Site, side, other *workload.Side) bool {
	if other.Table != nil && isBucketed(other.Table) {
		return true
	}
	thr := s.Options.BroadcastThreshold()
	if other.Table != nil && other.Table.SizeInBytes > 0 {
		a := side.Table.SizeInBytes
		return other.Table.SizeInBytes > thr && (a <= 0 || a > thr)
	}
	if s.Query != nil && s.Query.Weight >= 2 {
		return true
	}
	n := 0
	for _, o := range p.joinSites() {
		for i, os := range o.Sides() {
			oo := o.Sides()[1-i]
			if os.Table == side.Table && sameTable(oo.Table, other.Table) &&
				sameColumns(keyCols(os.Keys), keyCols(side.Keys)) && sameColumns(keyCols(oo.Keys), keyCols(other.Keys)) {
				n++
			}
		}
	}
	return n >= 2
}

// sameTable reports two sides reading the same table (both unknown counts as the same).
func sameTable(a, b *plan.Table) bool {
	if a == nil || b == nil {
		return a == b
	}
	return a.Name == b.Name
}

// otherName names a join side's table, or its label when the table is unknown.
func otherName(s *workload.Side) string {
	if s.Table != nil {
		return s.Table.Name
	}
	return s.Label
}

// layoutWanted returns another join site that reads side's table on other keys where
// bucketing the table on that site's keys is plausible (bucketingPlausible), nil when none
// does: a layout for s would contradict the one that site calls for.
func (p *Pass) layoutWanted(s *workload.Site, side *workload.Side) *workload.Site {
	for _, o := range p.joinSites() {
		if o == s {
			continue
		}
		for i, os := range o.Sides() {
			if os.Table == side.Table && !sameColumns(keyCols(os.Keys), keyCols(side.Keys)) &&
				p.bucketingPlausible(o, os, o.Sides()[1-i]) {
				return o
			}
		}
	}
	return nil
}

// layoutServes returns another join site that reads side's table on exactly its bucket
// columns (as a table read, joined on all of them), nil when none does.
func (p *Pass) layoutServes(s *workload.Site, side *workload.Side) *workload.Site {
	b := side.Table.Buckets()
	for _, o := range p.joinSites() {
		if o == s {
			continue
		}
		for _, os := range o.Sides() {
			if os.Table == side.Table && matchKeys(b.Columns, os.Keys) == exactKeys {
				return o
			}
		}
	}
	return nil
}
