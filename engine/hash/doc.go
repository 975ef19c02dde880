// Package hash computes the hash functions Spark uses to place rows in buckets, and the
// bucket ids derived from them.
//
// A Spark (datasource) bucketed table puts a row in bucket
// pmod(Murmur3Hash(bucket columns..., seed 42), numBuckets): the partition id of
// HashPartitioning in org.apache.spark.sql.catalyst.plans.physical, used by the writer
// (V1WritesUtils.getWriterBucketSpec) and by every shuffle Exchange. Spark's Murmur3 is not
// the standard MurmurHash3_x86_32: byte strings are hashed by Murmur3_x86_32.hashUnsafeBytes,
// which mixes each tail byte (length mod 4) separately as a sign-extended int, and each SQL
// type has its own rule (HashExpression in Spark's hash.scala): int-like types hash as an int,
// bigint and timestamps as a long, decimals up to precision 18 as their unscaled long, wider
// decimals as the bytes of java.math.BigInteger.toByteArray, floats and doubles by their
// canonical bits with -0.0 folded into 0.0 (Spark 3.2 and later), NULL leaves the running
// hash unchanged, and columns chain: each column's hash is the seed of the next.
//
// Hive-format bucketed tables written by Spark 3.3 and later use HiveHash (Hive 1.2.1's
// ObjectInspectorUtils.hashCode) and bucket pmod(hash & Integer.MAX_VALUE, numBuckets),
// whatever the table's bucketing_version says.
//
// The package has two layers that always agree (a fuzz test checks it):
//
//   - a scalar API for one row at a time: [Type], [ParseType], [Value], [ParseValue],
//     [Murmur3], [Hive], [Bucket] and [HiveBucket], used by `bucketlint hash` and by tests;
//   - vector kernels over typed slices ([Murmur3Int64s], [Murmur3Strings], [HiveInt64s],
//     [Buckets], ...) that update a running-hash vector in place, with an optional null
//     bitmap, and neither allocate nor make an interface call per row. The columnar engine
//     (engine/exec) uses these.
//
// A Murmur3 kernel sets h[i] = hash(src[i], seed h[i]) for every row i < len(h), so calling
// one kernel per bucket column, after [FillSeed], chains the columns as Spark does; a Hive
// kernel sets h[i] = 31*h[i] + hash(src[i]) from h = 0. Null bitmaps are []uint64 in which
// bit i%64 of word i/64 is set when row i is NULL (see [IsNull], [SetNull]); a nil bitmap
// means no row is NULL. Inputs shorter than h are a programming error and panic like an
// out-of-range index, as crypto/subtle.XORBytes does.
//
// Spark versions before 3.2 hashed float and double -0.0 by its own bits; [Options] and
// [OptionsFor] select that behaviour, and the package-level functions follow Spark 3.2 and
// later. Everything else hashes alike from Spark 3.0 to 4.x (the expression must not
// change: streaming state depends on it).
//
// In bucketlint's dependency order engine/hash sits at the bottom of engine/ (hash ← store ←
// exec ← verify) and imports only the standard library.
package hash
