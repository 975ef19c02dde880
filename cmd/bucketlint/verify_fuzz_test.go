//go:build engine

package main

import (
	"errors"
	"testing"

	"github.com/bucketlint/bucketlint/engine/store"
	"github.com/bucketlint/bucketlint/parser/sql"
)

// FuzzTableLayout: any --table-spec, --types and column flags give a layout that
// store.Open accepts, or a usage error, never a panic.
func FuzzTableLayout(f *testing.F) {
	for _, s := range []struct {
		spec, types, bucket, sort, part string
		buckets                         int
		hive                            bool
	}{
		{spec: "db.t: parquet PARTITIONED BY (p) CLUSTERED BY (k) SORTED BY (s) INTO 8 BUCKETS", types: "k:int,p:date"},
		{spec: "`db`.`t`: hive CLUSTERED BY (`k`, j) INTO 4 BUCKETS", types: "k:bigint, j:decimal(38,10)"},
		{spec: "t: CLUSTERED BY () INTO 0 BUCKETS STORED AS PARQUET", types: "k"},
		{spec: "t: CLUSTERED BY (k) INTO 99999999999999999999 BUCKETS", types: "k:string"},
		{spec: "t: CLUSTERED BY (k) INTO 200000 BUCKETS PARTITIONED BY (k)", types: "k:array<int>"},
		{bucket: "k,k", buckets: 4, part: "p,p", types: "k:timestamp"},
		{bucket: "k", buckets: -1, sort: "s", types: "k:int"},
		{bucket: "k", buckets: 3, part: "k", types: "k:int", hive: true},
	} {
		f.Add(s.spec, s.types, s.bucket, s.sort, s.part, s.buckets, s.hive)
	}
	p, err := sql.New()
	if err != nil {
		f.Fatal(err)
	}
	f.Fuzz(func(t *testing.T, spec, types, bucket, sortCols, part string, buckets int, hive bool) {
		o := &layoutOptions{tableSpec: spec, types: types, bucketColumns: bucket, sortColumns: sortCols, partitionColumns: part, buckets: buckets, hive: hive, parser: p}
		_, schema, layout, err := o.tableLayout()
		if err != nil {
			var ue *usageError
			if !errors.As(err, &ue) {
				t.Fatalf("not a usage error: %v", err)
			}
			return
		}
		if !layout.Bucketed() || len(schema) == 0 {
			t.Fatalf("layout %+v with schema %v and no error", layout, schema)
		}
		_, _ = store.Open(t.TempDir(), schema, layout)
	})
}
