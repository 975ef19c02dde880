//go:build engine

package verify

import (
	"fmt"
	"path/filepath"

	"github.com/bucketlint/bucketlint/engine/store"
)

// A LayoutCheck is a table directory checked against its bucket spec.
type LayoutCheck struct {
	// Table names the table checked; Dir is the directory read.
	Table, Dir string
	// Layout is the bucket spec the rows were checked against.
	Layout store.Layout
	store.Validation
	// HiveNamed is set when a Murmur3 check found misplaced rows only in files named as Spark
	// names the files of Hive-format tables (00003_0_…): the table is probably Hive-format.
	HiveNamed bool
}

// Hive reports whether the table was checked as a Hive-format table (HiveHash buckets).
func (c *LayoutCheck) Hive() bool { return c.Layout.Bucketing == store.HiveBucketing }

// ValidateLayout checks a bucketed table directory written by someone else's job, read-only:
// every row must sit in the bucket its file name says, pmod(Murmur3Hash(bucket columns), n)
// for a data-source table, pmod(HiveHash(bucket columns) & Int.MaxValue, n) for a Hive-format
// one (layout.Bucketing), and every file must have a bucket id Spark reads. It reports up to
// limit misplaced rows; table names the table in the result.
func ValidateLayout(table, dir string, schema store.Schema, layout store.Layout, limit int) (*LayoutCheck, error) {
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
	c := &LayoutCheck{Table: table, Dir: dir, Layout: layout, Validation: *v}
	hive := store.NewHiveBucketParser()
	c.HiveNamed = layout.Bucketing == store.SparkBucketing && len(v.First) > 0
	for _, m := range v.First {
		if _, ok := hive.Bucket(filepath.Base(m.File)); !ok {
			c.HiveNamed = false
		}
	}
	return c, nil
}
