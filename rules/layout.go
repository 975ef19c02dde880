package rules

import (
	"fmt"
	"strings"

	"github.com/bucketlint/bucketlint/plan"
	"github.com/bucketlint/bucketlint/simulate"
)

// A keyMatch says how a side's bucket columns relate to its join (or grouping) keys.
type keyMatch int

// The key matches.
const (
	notBucketed   keyMatch = iota // no usable bucket spec
	exactKeys                     // bucket columns = key columns, as sets
	subsetKeys                    // bucket columns ⊂ key columns
	supersetKeys                  // bucket columns ⊃ key columns
	differentKeys                 // neither
)

// String names the match for messages and tests.
func (m keyMatch) String() string {
	return [...]string{"not bucketed", "exact", "subset", "superset", "different"}[m]
}

// matchKeys compares bucket columns with the key columns (names, case-insensitive; keys that
// are not columns count as no column).
func matchKeys(bucket []string, keys []plan.ColumnRef) keyMatch {
	if len(bucket) == 0 {
		return notBucketed
	}
	ks := map[string]bool{}
	for _, k := range keys {
		if k.Column != "" {
			ks[strings.ToLower(k.Column)] = true
		}
	}
	bs := map[string]bool{}
	inKeys := 0
	for _, b := range bucket {
		b = strings.ToLower(b)
		if !bs[b] && ks[b] {
			inKeys++
		}
		bs[b] = true
	}
	switch {
	case inKeys == len(bs) && len(bs) == len(ks):
		return exactKeys
	case inKeys == len(bs):
		return subsetKeys
	case inKeys == len(ks) && len(ks) > 0:
		return supersetKeys
	}
	return differentKeys
}

// sideMatch is matchKeys for a join side: notBucketed unless Spark can read the side's table
// as bucketed.
func sideMatch(s *joinSide) keyMatch {
	if !isBucketed(s.Table) {
		return notBucketed
	}
	return matchKeys(s.Table.Bucket.Columns, s.Keys)
}

// bucketKeyOrder returns, for each bucket column of a side, the index of the join key pair
// it is clustered on; nil when a bucket column is not a key.
func bucketKeyOrder(s *joinSide) []int {
	if !isBucketed(s.Table) {
		return nil
	}
	var out []int
	for _, b := range s.Table.Bucket.Columns {
		i := keyIndex(s.Keys, b)
		if i < 0 {
			return nil
		}
		out = append(out, i)
	}
	return out
}

func keyIndex(keys []plan.ColumnRef, col string) int {
	for i, k := range keys {
		if strings.EqualFold(k.Column, col) {
			return i
		}
	}
	return -1
}

// orderMismatch reports whether both sides are bucketed on the join keys with columns that
// pair up in a different order: (a, b) on one side and (b, a) on the other for a = a, b = b.
func orderMismatch(s *joinSite) bool {
	l, r := bucketKeyOrder(&s.Left), bucketKeyOrder(&s.Right)
	if len(l) == 0 || len(l) != len(r) || sideMatch(&s.Left) != exactKeys || sideMatch(&s.Right) != exactKeys {
		return false
	}
	for i := range l {
		if l[i] != r[i] {
			return true
		}
	}
	return false
}

// keyType returns the type a key is compared at: its cast, else its column's type.
func keyType(s *joinSide, k plan.ColumnRef) string {
	if k.Cast != "" {
		return k.Cast
	}
	return columnType(s.Table, k.Column)
}

// typeMismatch returns the first key pair whose columns have different known types, or
// whose key casts its column to another type, -1 when none.
func typeMismatch(s *joinSite) int {
	for i := range s.Left.Keys {
		if i >= len(s.Right.Keys) {
			break
		}
		l, r := keyType(&s.Left, s.Left.Keys[i]), keyType(&s.Right, s.Right.Keys[i])
		if l != "" && r != "" && l != r {
			return i
		}
		if castsColumn(&s.Left, s.Left.Keys[i]) || castsColumn(&s.Right, s.Right.Keys[i]) {
			return i
		}
	}
	return -1
}

// castsColumn reports whether a key casts its column to a type other than the column's.
func castsColumn(s *joinSide, k plan.ColumnRef) bool {
	raw := columnType(s.Table, k.Column)
	return k.Cast != "" && raw != "" && !strings.EqualFold(raw, k.Cast)
}

// rawType returns a key's column type, else the type it is compared at.
func rawType(s *joinSide, k plan.ColumnRef) string {
	if t := columnType(s.Table, k.Column); t != "" {
		return t
	}
	return keyType(s, k)
}

// keyColumns lists a side's key columns as written: "(customer_id, dt)".
func keyColumns(keys []plan.ColumnRef) string {
	var cols []string
	for _, k := range keys {
		if k.Column != "" {
			cols = append(cols, k.Column)
		} else {
			cols = append(cols, k.Text)
		}
	}
	return "(" + strings.Join(cols, ", ") + ")"
}

// sideName names a side for messages: its table, or "the other input".
func sideName(s *joinSide) string {
	switch {
	case s.Table != nil && s.Via != "":
		return s.Table.Name + " via " + s.Via
	case s.Table != nil:
		return s.Table.Name
	case s.Name != "":
		return s.Name
	}
	return "the other input"
}

// shuffledText says which sides a join shuffles: "shuffles b", "shuffles a and b".
func shuffledText(s *joinSite, guess *joinSide) string {
	var names []string
	for _, side := range s.sides() {
		if side.Shuffled {
			names = append(names, sideName(side))
		}
	}
	if !s.Known && guess != nil {
		names = []string{sideName(guess)}
	}
	if len(names) == 0 {
		return "needs no shuffle"
	}
	return "shuffles " + strings.Join(names, " and ")
}

// layoutCause explains in one clause why a join over these sides shuffles, from the tables'
// bucket specs: the cause BL310 prints and the other BL3xx rules each report in detail.
//
// focus is the side whose shuffle is explained: its own mismatch is named first.
func layoutCause(s *joinSite, focus *joinSide, opts simulate.Options) string {
	l, r := &s.Left, &s.Right
	if !opts.BucketingEnabled() || scanCause(s, plan.NotBucketedByConfiguration) {
		return "spark.sql.sources.bucketing.enabled is false, so no scan is bucketed"
	}
	for _, side := range s.sides() {
		if side.Table != nil && side.Table.Hive && side.Table.Bucket != nil {
			return side.Table.Name + " is a Hive-serde table, read without its bucket spec"
		}
	}
	lm, rm := sideMatch(l), sideMatch(r)
	switch {
	case lm == notBucketed && rm == notBucketed:
		if l.Table == nil && r.Table == nil {
			return "the tables' bucket specs are unknown (add their DDL)"
		}
		return "neither side is bucketed"
	case lm == exactKeys && rm == notBucketed:
		return fmt.Sprintf("only %s is bucketed on the join keys; %s is not bucketed", sideName(l), sideName(r))
	case rm == exactKeys && lm == notBucketed:
		return fmt.Sprintf("only %s is bucketed on the join keys; %s is not bucketed", sideName(r), sideName(l))
	}
	order := s.sides()
	if focus == &s.Right {
		order[0], order[1] = order[1], order[0]
	}
	for _, side := range order {
		if m := sideMatch(side); m != exactKeys && m != notBucketed {
			return fmt.Sprintf("%s is bucketed on (%s) but joined on %s", sideName(side), strings.Join(side.Table.Bucket.Columns, ", "), keyColumns(side.Keys))
		}
	}
	if i := typeMismatch(s); i >= 0 {
		return fmt.Sprintf("the join key types differ: %s is %s, %s is %s", keyName(l, l.Keys[i]), rawType(l, l.Keys[i]), keyName(r, r.Keys[i]), rawType(r, r.Keys[i]))
	}
	if orderMismatch(s) {
		return fmt.Sprintf("%s is bucketed on (%s) and %s on (%s): the columns pair up in a different order", sideName(l), strings.Join(l.Table.Bucket.Columns, ", "), sideName(r), strings.Join(r.Table.Bucket.Columns, ", "))
	}
	if lm == exactKeys && rm == exactKeys && l.Table.Bucket.NumBuckets != r.Table.Bucket.NumBuckets {
		return fmt.Sprintf("the bucket counts differ: %s has %d, %s has %d", sideName(l), l.Table.Bucket.NumBuckets, sideName(r), r.Table.Bucket.NumBuckets)
	}
	if lm == exactKeys && rm == exactKeys {
		return "both sides are bucketed alike, so the scan or the planner dropped the layout (see the scans' Bucketed field)"
	}
	return "the layouts do not match the join keys"
}

// scanCause reports whether a printed scan of the join says it is not bucketed for cause.
func scanCause(s *joinSite, cause plan.BucketedCause) bool {
	for _, side := range s.sides() {
		if fs, ok := side.Scan.(*plan.FileScan); ok && fs.BucketedCause == cause {
			return true
		}
	}
	return false
}

// keyName names a key's column with its table ("orders.customer_id"), else the key as
// written.
func keyName(s *joinSide, k plan.ColumnRef) string {
	if k.Column != "" && s.Table != nil {
		return s.Table.Name + "." + k.Column
	}
	return k.Text
}
