//go:build engine

package store

import (
	"fmt"

	"github.com/bucketlint/bucketlint/engine/hash"
)

// A Bucketing is the scheme a bucketed table's writer follows: the hash that picks a row's
// bucket and where the file name carries the bucket id.
type Bucketing uint8

const (
	// SparkBucketing is the scheme of Spark datasource tables (CREATE TABLE … USING parquet,
	// DataFrameWriter.bucketBy): bucket pmod(Murmur3Hash(bucket columns, 42), n), file names
	// part-NNNNN-<job>_BBBBB.c000.snappy.parquet. Spark reads such tables with a bucketed scan.
	SparkBucketing Bucketing = iota
	// HiveBucketing is the scheme Spark 3.3 and later use to write Hive-format tables
	// (CREATE TABLE … STORED AS PARQUET CLUSTERED BY …, SPARK-32709): bucket
	// pmod(HiveHash(bucket columns) & Int.MaxValue, n), the name prefixed with the bucket id
	// as %05d_0_ for Hive's Utilities.getBucketIdFromFile. Spark never reads them with a
	// bucketed scan.
	HiveBucketing
)

// String names the scheme as --table-spec and messages spell it.
func (b Bucketing) String() string {
	if b == HiveBucketing {
		return "hive"
	}
	return "spark"
}

// HiveBucketFileName returns the name Spark 3.5 gives the bucket file of a Hive-format table
// written by task task of job job: the datasource name prefixed with the bucket id,
// 00003_0_part-00007-<job>_00003.c000.snappy.parquet (recorded from Spark 3.5.9 in
// engine/testdata/spark/hive-3.5.9).
func HiveBucketFileName(task int, job string, bucket int) string {
	return fmt.Sprintf("%05d_0_%s", bucket, BucketFileName(task, job, bucket))
}

// hiveBucketIDPattern is the file-name pattern of Hive's Utilities.getBucketIdFromFile and
// Trino's BUCKET_PATTERNS: leading digits, an underscore and a task attempt number, then
// nothing or an underscore or dot suffix. It matches Spark's 00003_0_part-… names as well as
// Hive's own 000003_0 and 000003_0_copy_1.
const hiveBucketIDPattern = `^(\d+)_\d+(?:[_.].*)?$`

// fileName returns the name of a file of the table written with scheme b.
func (b Bucketing) fileName(task int, job string, bucket int) string {
	if b == HiveBucketing && bucket >= 0 {
		return HiveBucketFileName(task, job, bucket)
	}
	return BucketFileName(task, job, bucket)
}

// NewHiveBucketParser returns a parser of Hive bucket file names: the bucket id is the number
// before the first underscore (00003_0_part-…, 000003_0).
func NewHiveBucketParser() BucketParser {
	return BucketParser{re: hiveBucketIDRe}
}

// parser returns the file-name parser of scheme b.
func (b Bucketing) parser() BucketParser {
	if b == HiveBucketing {
		return NewHiveBucketParser()
	}
	return NewBucketParser()
}

// Hive returns Spark's HiveHash of rows [0, n) over the columns cols, in order (h = 31*h +
// hash(column) from 0): the hash of Hive-format bucketed writes. The slice is reused by the
// next call.
func (s *Hasher) Hive(cols []*Vec, n int) []int32 {
	s.h = grow(s.h, n)
	clear(s.h)
	for _, c := range cols {
		s.hiveColumn(c, n)
	}
	return s.h
}

// HiveBuckets stores pmod(HiveHash(cols) & Int.MaxValue, buckets) of rows [0, n) in dst.
func (s *Hasher) HiveBuckets(dst []int32, cols []*Vec, n, buckets int) {
	h := s.Hive(cols, n)
	hash.HiveBuckets(dst[:n], h, buckets)
}

// BucketsOf stores the bucket ids of rows [0, n) under scheme b in dst.
func (s *Hasher) BucketsOf(b Bucketing, dst []int32, cols []*Vec, n, buckets int) {
	if b == HiveBucketing {
		s.HiveBuckets(dst, cols, n, buckets)
		return
	}
	s.Buckets(dst, cols, n, buckets)
}

func (s *Hasher) hiveColumn(c *Vec, n int) {
	h := s.h[:n]
	nulls := c.NullBitmap()
	switch c.Type.Kind {
	case hash.KindBigInt:
		hash.HiveInt64s(h, c.Ints, nulls)
	case hash.KindTimestamp, hash.KindTimestampNTZ:
		hash.HiveTimestamps(h, c.Ints, nulls)
	case hash.KindDecimal:
		if c.Kind == KindInt128 {
			hash.HiveInt128s(h, c.Wide, c.Type.Scale, nulls)
		} else {
			hash.HiveDecimal64s(h, c.Ints, c.Type.Scale, nulls)
		}
	case hash.KindInt, hash.KindDate, hash.KindSmallInt, hash.KindTinyInt, hash.KindBoolean:
		// Each of these hashes as its own value (booleans as 1 or 0), so one int32 kernel
		// serves them all.
		hash.HiveInt32s(h, s.int32s(c, n), nulls)
	case hash.KindDouble:
		hash.HiveFloat64s(h, c.Floats, nulls)
	case hash.KindFloat:
		hash.HiveFloat32s(h, s.float32s(c, n), nulls)
	case hash.KindString, hash.KindBinary:
		hash.HiveStrings(h, c.Offsets, c.Data, nulls)
	default:
		panic(fmt.Sprintf("store: cannot Hive-hash %s", c.Type))
	}
}
