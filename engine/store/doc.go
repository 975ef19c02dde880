//go:build engine

// Package store writes and reads tables in the file layouts Spark uses for datasource tables:
// unbucketed, bucketed (CLUSTERED BY … INTO n BUCKETS), Hive-style partitioned and bucketed,
// and sorted within buckets. It is the only package that touches Parquet (parquet-go).
//
// Files are named as Spark's FileFormatDataWriter and HadoopMapReduceCommitProtocol name
// them, part-NNNNN-<job uuid>_BBBBB.c000.snappy.parquet, with the Parquet types Spark reads:
// signed integers, UTF-8 strings, microsecond timestamps, decimals on INT32, INT64 or (wider
// than 18 digits, held in memory as 128-bit unscaled values) FIXED_LEN_BYTE_ARRAY of
// Decimal.minBytesForPrecision bytes, DataPageVersion(1) pages, snappy.
// A row goes to bucket pmod(Murmur3Hash(bucket columns, 42), n), computed with engine/hash,
// so a real Spark adopts the directory with CREATE TABLE … USING parquet CLUSTERED BY …
// INTO n BUCKETS LOCATION '…' and plans joins on the bucket columns without a shuffle.
//
// Hive-format tables (STORED AS PARQUET CLUSTERED BY …) follow another scheme, which Spark 3.3
// and later use when writing them ([HiveBucketing]): bucket pmod(HiveHash(bucket columns) &
// Int.MaxValue, n), file names prefixed with the bucket id, 00003_0_part-….snappy.parquet.
// Spark never reads those with a bucketed scan; [Validate] checks them all the same.
//
// Data is held column by column in [Vec] and [Batch] (typed vectors with a null bitmap and an
// optional selection vector), the representation engine/exec runs on. Tables are read back
// through parquet-go's page API into batches, bucket by bucket, with bucket and partition
// pruning; [Validate] checks that every row sits in the bucket its file name says.
//
// Inputs come from CSV, JSON lines, Parquet files or a seeded generator ([Generate]).
// Writes go only to a directory that is empty or does not exist yet; nothing is overwritten.
//
// Every file of engine/store, engine/exec and engine/verify is built only with -tags engine
// (issue 15): the linter's default build leaves the engine and parquet-go out. A new file here
// needs the constraint too; internal/enginetest runs the tests from a build without the tag.
//
// Dependency order: engine/hash ← engine/store ← engine/exec.
package store
