package parser

import (
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"testing"

	"github.com/bucketlint/bucketlint/parser/sql"
)

// BenchmarkLoad loads a generated repository of 2,000 mixed files (DDL, queries, PySpark
// jobs, explain logs, DESCRIBE output, catalogs, plain text and binary files) with one worker
// and with one per CPU (GOMAXPROCS), and reports files/s.
func BenchmarkLoad(b *testing.B) {
	dir := b.TempDir()
	n := generateRepo(b, dir, 2000)
	sqlp, err := sql.New()
	if err != nil {
		b.Fatal(err)
	}
	for _, workers := range []int{1, runtime.GOMAXPROCS(0)} {
		b.Run(fmt.Sprintf("workers=%d", workers), func(b *testing.B) {
			for b.Loop() {
				proj, errs := Load(b.Context(), []string{dir}, LoadOptions{Workers: workers, SQL: sqlp})
				if len(errs) > 0 || len(proj.Tables) == 0 {
					b.Fatalf("%d tables, errors %v", len(proj.Tables), errs)
				}
			}
			b.ReportMetric(float64(n)*float64(b.N)/b.Elapsed().Seconds(), "files/s")
		})
	}
}

// generateRepo writes n files spread over directories and returns n.
func generateRepo(b *testing.B, dir string, n int) int {
	b.Helper()
	for i := range n {
		var name, text string
		switch i % 8 {
		case 0, 1:
			name = fmt.Sprintf("ddl/t%04d.sql", i)
			text = fmt.Sprintf("CREATE TABLE db.t%d (id BIGINT, k%d INT, v STRING, dt DATE)\nUSING parquet PARTITIONED BY (dt)\nCLUSTERED BY (id) SORTED BY (id) INTO %d BUCKETS;\nALTER TABLE db.t%d ADD COLUMNS (extra STRING);\nSET spark.sql.shuffle.partitions=%d;\n", i, i, 1<<(i%7), i, 100+i)
		case 2:
			name = fmt.Sprintf("queries/q%04d.sql", i)
			text = fmt.Sprintf("SELECT a.id, count(*) FROM db.t%d a JOIN db.t%d b ON a.id = b.id WHERE a.dt = '2024-01-01' GROUP BY a.id;\n", i-2, i-1)
		case 3:
			name = fmt.Sprintf("jobs/job%04d.py", i)
			text = fmt.Sprintf("from pyspark.sql import SparkSession\nspark = SparkSession.builder.getOrCreate()\nspark.conf.set(\"spark.sql.adaptive.enabled\", \"true\")\ndf = spark.sql(\"\"\"\n  SELECT id, sum(k%d) AS s FROM db.t%d GROUP BY id\n\"\"\")\nother = spark.table(\"db.t%d\")\nj = df.join(other, \"id\")\nj.write.bucketBy(8, \"id\").sortBy(\"id\").mode(\"overwrite\").saveAsTable(\"db.out%d\")\n", i-3, i-3, i-2, i)
		case 4:
			name = fmt.Sprintf("logs/run%04d.log", i)
			text = "24/01/01 INFO starting\n== Physical Plan ==\n*(3) SortMergeJoin [id#1L], [id#4L], Inner\n:- *(1) Sort [id#1L ASC NULLS FIRST], false, 0\n:  +- Exchange hashpartitioning(id#1L, 200), ENSURE_REQUIREMENTS, [plan_id=1]\n:     +- *(1) ColumnarToRow\n:        +- FileScan parquet db.a[id#1L] Batched: true, DataFilters: [], Format: Parquet, Location: InMemoryFileIndex(1 paths)[file:/w/a], PartitionFilters: [], PushedFilters: [], ReadSchema: struct<id:bigint>\n+- *(2) Sort [id#4L ASC NULLS FIRST], false, 0\n   +- Exchange hashpartitioning(id#4L, 200), ENSURE_REQUIREMENTS, [plan_id=2]\n      +- *(2) ColumnarToRow\n         +- FileScan parquet db.b[id#4L] Batched: true, DataFilters: [], Format: Parquet, Location: InMemoryFileIndex(1 paths)[file:/w/b], PartitionFilters: [], PushedFilters: [], ReadSchema: struct<id:bigint>\n\n24/01/01 INFO done\n"
		case 5:
			name = fmt.Sprintf("describe/d%04d.txt", i)
			text = fmt.Sprintf("id\tbigint\nv\tstring\n\n# Detailed Table Information\nCatalog\tspark_catalog\nDatabase\tdb\nTable\td%d\nProvider\tparquet\nStatistics\t%d bytes, %d rows\nNum Buckets\t16\nBucket Columns\t[`id`]\nSort Columns\t[]\nLocation\ts3://lake/db/d%d\n", i, i*1000, i*10, i)
		case 6:
			name = fmt.Sprintf("catalogs/c%04d.yaml", i)
			text = fmt.Sprintf("bucketlint: {version: 1}\ntables:\n  - name: db.c%d\n    format: parquet\n    columns: [{name: id, type: bigint}]\n    bucket: {numBuckets: 32, columns: [id]}\n", i)
		default:
			if i%16 == 7 {
				name, text = fmt.Sprintf("data/blob%04d.txt", i), "PAR1\x00\x00binary"
			} else {
				name, text = fmt.Sprintf("notes/n%04d.txt", i), "Notes about the tables.\nNothing to parse here.\n"
			}
		}
		p := filepath.Join(dir, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			b.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			b.Fatal(err)
		}
	}
	return n
}
