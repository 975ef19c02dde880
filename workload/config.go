package workload

import (
	"github.com/bucketlint/bucketlint/plan"
	"github.com/bucketlint/bucketlint/simulate"
)

// Config is what a command gives New besides the loaded project: the Spark version, the
// settings that win over every file, table sizes given on the command line and the advisor's
// sizing inputs. The zero Config models Spark 3.5 with the files' settings only.
type Config struct {
	// SparkVersion is the Spark release modelled; the zero value means the default (3.5).
	SparkVersion simulate.Version
	// Confs are the settings of .bucketlint.yaml (spark.conf) overlaid with --conf: they win
	// over every setting found in the files.
	Confs map[string]string
	// Sizes are table sizes in bytes given on the command line (--size table=bytes); each name
	// must resolve in the catalogue.
	Sizes map[string]int64
	// TargetBucketBytes is the data one bucket should hold (thresholds.target-bucket-size;
	// 0 means the advisor's default, 256 MiB).
	TargetBucketBytes int64
	// ClusterCores is the number of executor cores (thresholds.cores), 0 when unknown.
	ClusterCores int
	// BucketOf is Spark's bucket function for literals (engine/hash.BucketOfLiteral), passed
	// to every simulation for bucket pruning; nil leaves pruning unmodelled.
	BucketOf func(typ string, lit *plan.X, n int) (int, bool)
	// Workers is how many goroutines build the join sites (Sites); 0 or less means one per
	// CPU (runtime.GOMAXPROCS). The sites do not depend on it.
	Workers int
}

// base returns the options every position starts from: the version and the bucket function,
// without settings.
func (c Config) base() simulate.Options {
	return simulate.Options{SparkVersion: c.SparkVersion, BucketOf: c.BucketOf}
}
