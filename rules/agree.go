package rules

import (
	"slices"
	"strconv"

	"github.com/bucketlint/bucketlint/simulate"
	"github.com/bucketlint/bucketlint/workload"
)

// Fixes that touch the same table agree: a rule whose fix depends on a table's bucket count
// (BL202's repartition into the count) takes the count another rule's fix moves the table to
// (BL301's rebucketing), so that a user applying both gets one layout.

// rebucketSides returns the sides of a join whose tables are bucketed on the join keys with
// different counts: the one BL301 rebuckets (the side Spark shuffles, else the one with fewer
// buckets) and the one whose count it takes.
func rebucketSides(s *workload.Site) (small, big *workload.Side) {
	ln, rn := s.Left.Table.Buckets().NumBuckets, s.Right.Table.Buckets().NumBuckets
	small, big = &s.Left, &s.Right
	onlyLeft := s.Known && s.Left.Shuffled && !s.Right.Shuffled
	onlyRight := s.Known && s.Right.Shuffled && !s.Left.Shuffled
	if onlyRight || (!onlyLeft && rn < ln) {
		small, big = big, small
	}
	return small, big
}

// otherCounts returns the counts of to other than n, as text.
func otherCounts(to []int, n int) []string {
	var out []string
	for _, c := range to {
		if c != n {
			out = append(out, strconv.Itoa(c))
		}
	}
	return out
}

// rebucketCounts returns the bucket counts BL301's fixes move the table named name to, once
// each, in increasing order: nil when no fix rebuckets it, more than one when it is joined
// with tables of different counts.
func (p *Pass) rebucketCounts(name string) []int {
	t := lookup(p.Project.Tables, name)
	if t == nil {
		return nil
	}
	var out []int
	for _, s := range p.joinSites() {
		if !s.Causes.Has(simulate.CauseCountMismatch) {
			continue
		}
		small, big := rebucketSides(s)
		if small.Table.Name != t.Name {
			continue
		}
		if n := big.Table.Buckets().NumBuckets; n > 0 && !slices.Contains(out, n) {
			out = append(out, n)
		}
	}
	slices.Sort(out)
	return out
}
