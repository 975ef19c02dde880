package verify

import (
	"fmt"

	"github.com/bucketlint/bucketlint/engine/store"
)

// ValidateLayout checks a bucketed table directory written by someone else's job, read-only:
// every row must sit in the bucket its file name says, pmod(Murmur3Hash(bucket columns), n)
// for a data-source table, pmod(HiveHash(bucket columns) & Int.MaxValue, n) for a Hive-format
// one (layout.Bucketing), and every file must have a bucket id Spark reads. It reports up to
// limit misplaced rows.
func ValidateLayout(dir string, schema store.Schema, layout store.Layout, limit int) (*store.Validation, error) {
	if !layout.Bucketed() {
		return nil, fmt.Errorf("validate %s: the table spec has no buckets", dir)
	}
	t, err := store.Open(dir, schema, layout)
	if err != nil {
		return nil, fmt.Errorf("validate %s: %w", dir, err)
	}
	v, err := store.Validate(t, limit)
	if err != nil {
		return nil, fmt.Errorf("validate %s: %w", dir, err)
	}
	return v, nil
}
