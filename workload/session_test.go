package workload_test

import (
	"slices"
	"testing"

	"github.com/bucketlint/bucketlint/plan"
	"github.com/bucketlint/bucketlint/simulate"
	"github.com/bucketlint/bucketlint/workload"
)

// TestSettingsPerSession: a setting applies to its own script from its position on; files that
// configure every application reach every script; the configured settings win over files.
func TestSettingsPerSession(t *testing.T) {
	files := map[string]string{
		"ddl.sql": bucketedDDL,
		"a.sql":   joinSQL + ";\nSET spark.sql.sources.bucketing.enabled=false;\n" + laterJoinSQL + ";",
		"b.sql":   joinSQL + ";",
		"job.py": `spark = SparkSession.builder.config("spark.sql.shuffle.partitions", "64").getOrCreate()
spark.sql("SELECT 1")
`,
		"conf/spark-defaults.conf": "spark.sql.autoBroadcastJoinThreshold -1\nspark.sql.adaptive.enabled false\n",
	}
	for _, tc := range []struct {
		name     string
		confs    map[string]string
		file     string
		frag     string
		key      string
		want     string
		shuffles int
	}{
		{"a SET holds in its own script after it", nil, "a.sql", "o2", simulate.ConfBucketingEnabled, "false", 2},
		{"a SET does not hold before it", nil, "a.sql", "c.customer_id", simulate.ConfBucketingEnabled, "", 0},
		{"a SET does not reach another script", nil, "b.sql", "JOIN", simulate.ConfBucketingEnabled, "", 0},
		{"spark-defaults.conf reaches every script", nil, "b.sql", "JOIN", simulate.ConfBroadcastThreshold, "-1", 0},
		{"a code session's .config is its own", nil, "b.sql", "JOIN", simulate.ConfShufflePartitions, "", 0},
		{"the configured settings win over files", map[string]string{simulate.ConfBucketingEnabled: "true"}, "a.sql", "o2", simulate.ConfBucketingEnabled, "true", 0},
	} {
		t.Run(tc.name, func(t *testing.T) {
			w := build(t, files, workload.Config{Confs: tc.confs})
			q := query(t, w, tc.file, tc.frag)
			if got := w.OptionsAt(q.Span.Start).Confs[tc.key]; got != tc.want {
				t.Errorf("%s at %s = %q, want %q", tc.key, q.Span.Start, got, tc.want)
			}
			if got := shuffles(t, w, q); len(got) != tc.shuffles {
				t.Errorf("exchanges %v, want %d", got, tc.shuffles)
			}
		})
	}
}

// TestCodeSessionSettings: spark.conf.set in a program applies from its position on, and the
// builder's .config(…) to the whole program after it.
func TestCodeSessionSettings(t *testing.T) {
	w := build(t, map[string]string{
		"ddl.sql": bucketedDDL,
		"job.py": `spark = SparkSession.builder.config("spark.sql.shuffle.partitions", "64").getOrCreate()
a = spark.sql("` + joinSQL + `")
spark.conf.set("spark.sql.sources.bucketing.enabled", "false")
b = spark.sql("` + joinSQL + ` ")
`,
	}, workload.Config{})
	var qs []*plan.Query
	for _, q := range w.Queries() {
		qs = append(qs, q.Query)
	}
	if len(qs) != 2 {
		t.Fatalf("queries %d, want 2", len(qs))
	}
	first, second := w.OptionsAt(qs[0].Span.Start), w.OptionsAt(qs[1].Span.Start)
	if first.ShufflePartitions() != 64 || second.ShufflePartitions() != 64 {
		t.Errorf("shuffle partitions %d and %d, want 64", first.ShufflePartitions(), second.ShufflePartitions())
	}
	if !first.BucketingEnabled() || second.BucketingEnabled() {
		t.Errorf("bucketing enabled %v then %v, want true then false", first.BucketingEnabled(), second.BucketingEnabled())
	}
	if s := w.Session("job.py"); s == nil || s.Language != "python" || len(s.Confs()) != 2 {
		t.Errorf("session of job.py = %+v", s)
	}
}

// TestCacheTable: CACHE TABLE makes the session's later scans of the table cached scans.
func TestCacheTable(t *testing.T) {
	w := build(t, map[string]string{
		"ddl.sql": bucketedDDL,
		"a.sql":   joinSQL + ";\nCACHE TABLE orders;\n" + laterJoinSQL + ";",
		"b.sql":   joinSQL + ";",
	}, workload.Config{})
	for _, tc := range []struct {
		file, frag string
		cached     []string
	}{
		{"a.sql", "c.customer_id", nil},
		{"a.sql", "o2", []string{"orders"}},
		{"b.sql", "JOIN", nil},
	} {
		var got []string
		for k := range w.OptionsAt(query(t, w, tc.file, tc.frag).Span.Start).CachedTables {
			got = append(got, k)
		}
		slices.Sort(got)
		if !slices.Equal(got, tc.cached) {
			t.Errorf("%s %q: cached %v, want %v", tc.file, tc.frag, got, tc.cached)
		}
	}
}

// TestScopedSettings: a setting made for a block (Scala's withSQLConf) holds inside the block
// only; after it, the value before the block is back, even when the block set the key again
// with spark.conf.set.
func TestScopedSettings(t *testing.T) {
	w := build(t, map[string]string{
		"ddl.sql": bucketedDDL,
		"Job.scala": `object Job {
  spark.conf.set("spark.sql.shuffle.partitions", "64")
  withSQLConf(SQLConf.SHUFFLE_PARTITIONS.key -> "8") {
    val a = spark.sql("` + joinSQL + `")
    spark.conf.set("spark.sql.shuffle.partitions", "16")
    val b = spark.sql("` + joinSQL + ` ")
  }
  val c = spark.sql("` + joinSQL + `  ")
}
`,
	}, workload.Config{})
	var got []int
	for _, q := range w.Queries() {
		got = append(got, w.OptionsAt(q.Query.Span.Start).ShufflePartitions())
	}
	if want := []int{8, 16, 64}; !slices.Equal(got, want) {
		t.Errorf("shuffle partitions %v, want %v", got, want)
	}
}
