package simulate

import (
	"strings"

	"github.com/bucketlint/bucketlint/plan"
)

// A KeyMatch says how a table's bucket columns relate to the join (or grouping) keys on it.
type KeyMatch int

// The key matches.
const (
	// NotBucketed: no bucket spec Spark reads.
	NotBucketed KeyMatch = iota
	// ExactKeys: the bucket columns are the key columns, as sets.
	ExactKeys
	// SubsetKeys: the bucket columns are some of the key columns.
	SubsetKeys
	// SupersetKeys: the bucket columns include every key column and others.
	SupersetKeys
	// DifferentKeys: neither.
	DifferentKeys
)

// String names the match for messages and tests.
func (m KeyMatch) String() string {
	switch m {
	case ExactKeys:
		return "exact"
	case SubsetKeys:
		return "subset"
	case SupersetKeys:
		return "superset"
	case DifferentKeys:
		return "different"
	}
	return "not bucketed"
}

// Cause is the cause of a shuffle of a side whose bucket columns match its keys so:
// CauseSatisfied for ExactKeys, CauseUnbucketed for NotBucketed.
func (m KeyMatch) Cause() Cause {
	switch m {
	case ExactKeys:
		return CauseSatisfied
	case SubsetKeys:
		return CauseBucketKeysSubset
	case SupersetKeys:
		return CauseBucketKeysSuperset
	case DifferentKeys:
		return CauseBucketKeysDifferent
	}
	return CauseUnbucketed
}

// MatchKeys compares bucket columns with the key columns (names, case-insensitive; keys that
// are not columns count as no column).
func MatchKeys(bucket []string, keys []plan.ColumnRef) KeyMatch {
	if len(bucket) == 0 {
		return NotBucketed
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
		return ExactKeys
	case inKeys == len(bs):
		return SubsetKeys
	case inKeys == len(ks) && len(ks) > 0:
		return SupersetKeys
	}
	return DifferentKeys
}

// BucketedTable reports whether a table has a bucket spec Spark reads: a data source table
// with a bucket spec (a Hive-serde table's spec is ignored on read).
func BucketedTable(t *plan.Table) bool {
	return t != nil && t.Buckets() != nil && !t.Hive
}

// Match is MatchKeys for the side: NotBucketed unless Spark can read its table as bucketed.
func (s *JoinSide) Match() KeyMatch {
	if !BucketedTable(s.Table) {
		return NotBucketed
	}
	return MatchKeys(s.Table.Buckets().Columns, s.Keys)
}

// BucketKeyOrder returns, for each bucket column of the side, the index of the join key
// pair it is clustered on; nil when a bucket column is not a key.
func (s *JoinSide) BucketKeyOrder() []int {
	if !BucketedTable(s.Table) {
		return nil
	}
	var out []int
	for _, b := range s.Table.Buckets().Columns {
		i := KeyIndex(s.Keys, b)
		if i < 0 {
			return nil
		}
		out = append(out, i)
	}
	return out
}

// KeyIndex returns the index of the first key on column col (case-insensitive), -1 when none.
func KeyIndex(keys []plan.ColumnRef, col string) int {
	for i, k := range keys {
		if strings.EqualFold(k.Column, col) {
			return i
		}
	}
	return -1
}

// KeyType returns the type a key of the side is compared at: its cast, else its column's
// type ("" when unknown).
func (s *JoinSide) KeyType(k plan.ColumnRef) string {
	if k.Cast != "" {
		return k.Cast
	}
	return s.Table.ColumnType(k.Column)
}

// CastsColumn reports whether a key casts its column to a type other than the column's.
func (s *JoinSide) CastsColumn(k plan.ColumnRef) bool {
	raw := s.Table.ColumnType(k.Column)
	return k.Cast != "" && raw != "" && !strings.EqualFold(raw, k.Cast)
}

// RawType returns a key's column type, else the type it is compared at.
func (s *JoinSide) RawType(k plan.ColumnRef) string {
	if t := s.Table.ColumnType(k.Column); t != "" {
		return t
	}
	return s.KeyType(k)
}

// KeyName names a key's column with the side's table ("orders.customer_id"), else the key
// as written.
func (s *JoinSide) KeyName(k plan.ColumnRef) string {
	if k.Column != "" && s.Table != nil {
		return s.Table.Name + "." + k.Column
	}
	return k.Text
}

// KeyColumns lists keys' columns as written, a key that is not a column by its text:
// "(customer_id, dt)".
func KeyColumns(keys []plan.ColumnRef) string {
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
