//go:build engine

package store

import (
	"crypto/rand"
	"fmt"
	"regexp"
	"strconv"
)

// A Layout is how a table's rows are spread over directories and files.
type Layout struct {
	// Buckets is the bucket count of CLUSTERED BY … INTO Buckets BUCKETS; 0 for an unbucketed
	// table.
	Buckets int
	// BucketColumns are the CLUSTERED BY columns, in order (the order changes the hash).
	BucketColumns []string
	// SortColumns are the SORTED BY columns: each file is sorted by them, ascending with
	// NULLs first, as Spark's writer sorts (V1WritesUtils.getSortOrder).
	SortColumns []string
	// PartitionColumns are the PARTITIONED BY columns: one col=value directory level each.
	// They are not stored inside the files, as in Spark.
	PartitionColumns []string
	// Tasks is the number of write tasks. Each task writes one file per bucket (and
	// partition) it has rows for, so Tasks > 1 gives Spark's tasks × buckets small files.
	// 0 means 1: one file per bucket per partition, as after repartition(n, bucket columns).
	Tasks int
	// Bucketing is the writer's scheme: the bucket hash and the file names. The zero value
	// is Spark's datasource scheme; HiveBucketing is that of Hive-format tables.
	Bucketing Bucketing
}

// Bucketed reports whether the layout has buckets.
func (l Layout) Bucketed() bool { return l.Buckets > 0 }

// check validates the layout against the schema.
func (l Layout) check(s Schema) error {
	if l.Buckets < 0 || l.Buckets > 100000 {
		return fmt.Errorf("bucket count %d out of range 1..100000 (spark.sql.sources.bucketing.maxBuckets)", l.Buckets)
	}
	if (l.Buckets > 0) != (len(l.BucketColumns) > 0) {
		return fmt.Errorf("a bucketed layout needs both a bucket count and bucket columns")
	}
	if len(l.SortColumns) > 0 && l.Buckets == 0 {
		return fmt.Errorf("sort columns need a bucketed layout, as in Spark")
	}
	for _, group := range [][]string{l.BucketColumns, l.SortColumns, l.PartitionColumns} {
		if _, err := s.Indexes(group); err != nil {
			return err
		}
	}
	for _, b := range append(append([]string{}, l.BucketColumns...), l.SortColumns...) {
		for _, p := range l.PartitionColumns {
			if b == p {
				return fmt.Errorf("column %s is both a partition column and a bucket or sort column", b)
			}
		}
	}
	if len(l.PartitionColumns) >= len(s) {
		return fmt.Errorf("every column is a partition column")
	}
	return nil
}

// BucketFileName returns the name Spark gives a bucket file written by task task of job job:
// part-00007-<job>_00003.c000.snappy.parquet. An unbucketed file (bucket < 0) is
// part-00007-<job>-c000.snappy.parquet.
func BucketFileName(task int, job string, bucket int) string {
	if bucket < 0 {
		return fmt.Sprintf("part-%05d-%s-c000.snappy.parquet", task, job)
	}
	return fmt.Sprintf("part-%05d-%s_%05d.c000.snappy.parquet", task, job, bucket)
}

// bucketIDPattern is BucketingUtils.bucketIdGenerator's regex: the digits after the last
// underscore that is followed only by digits and then the end or a dot suffix.
const bucketIDPattern = `.*_(\d+)(?:\..*)?$`

// A BucketParser extracts bucket ids from file names as Spark's BucketingUtils.getBucketId does.
type BucketParser struct{ re *regexp.Regexp }

// bucketIDRe and hiveBucketIDRe are compiled once: every table read asks for a parser.
var (
	bucketIDRe     = regexp.MustCompile(bucketIDPattern)
	hiveBucketIDRe = regexp.MustCompile(hiveBucketIDPattern)
)

// NewBucketParser returns a parser of Spark bucket file names.
func NewBucketParser() BucketParser { return BucketParser{re: bucketIDRe} }

// Bucket returns the bucket id in a file name, and false when the name has none (Spark then
// fails the query with INVALID_BUCKET_FILE).
func (p BucketParser) Bucket(name string) (int, bool) {
	m := p.re.FindStringSubmatch(name)
	if m == nil {
		return 0, false
	}
	id, err := strconv.Atoi(m[1])
	if err != nil {
		return 0, false
	}
	return id, true
}

// newJobID returns a random UUID (version 4) as Spark's job ids look.
func newJobID() (string, error) {
	var b [16]byte
	if _, err := rand.Read(b[:]); err != nil {
		return "", fmt.Errorf("job id: %w", err)
	}
	b[6] = b[6]&0x0f | 0x40
	b[8] = b[8]&0x3f | 0x80
	return fmt.Sprintf("%x-%x-%x-%x-%x", b[0:4], b[4:6], b[6:8], b[8:10], b[10:16]), nil
}
