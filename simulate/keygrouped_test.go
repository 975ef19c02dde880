package simulate

import (
	"strings"
	"testing"

	"github.com/bucketlint/bucketlint/parser/sql"
	"github.com/bucketlint/bucketlint/plan"
)

// icebergDDL are Iceberg tables: i8 and j8 partitioned by bucket(8, k), i4 by bucket(4, k),
// iu unpartitioned, ik by (bucket(8, k), v), id by days(ts).
const icebergDDL = `
CREATE TABLE i8 (k INT, v INT, ts TIMESTAMP) USING iceberg PARTITIONED BY (bucket(8, k));
CREATE TABLE j8 (k INT, v INT, ts TIMESTAMP) USING iceberg PARTITIONED BY (bucket(8, k));
CREATE TABLE i4 (k INT, v INT, ts TIMESTAMP) USING iceberg PARTITIONED BY (bucket(4, k));
CREATE TABLE iu (k INT, v INT, ts TIMESTAMP) USING iceberg;
CREATE TABLE ik (k INT, v INT, ts TIMESTAMP) USING iceberg PARTITIONED BY (bucket(8, k), v);
CREATE TABLE jk (k INT, v INT, ts TIMESTAMP) USING iceberg PARTITIONED BY (bucket(8, k), v);
CREATE TABLE id (k INT, v INT, ts TIMESTAMP) USING iceberg PARTITIONED BY (days(ts));
`

// TestKeyGroupedDecisions checks storage-partitioned joins: the decision of each join side
// ("side Inserted cause"), the shuffles' partitionings, for the cases recorded in
// fixtures/spark-iceberg and the version boundaries of the settings.
func TestKeyGroupedDecisions(t *testing.T) {
	t.Parallel()
	p, err := sql.New()
	if err != nil {
		t.Fatal(err)
	}
	ddl, errs := p.ParseFile("ddl.sql", []byte(icebergDDL))
	if len(errs) > 0 {
		t.Fatal(errs)
	}
	tables := map[string]*plan.Table{}
	for _, tb := range ddl.Tables {
		tables[tb.Name] = tb
	}
	spj := []string{ConfV2Bucketing, "true", ConfIcebergPreserveGrouping, "true"}
	tests := []struct {
		name, version, query string
		confs                []string
		want                 string
	}{
		{
			"equal, settings off", "3.5", "SELECT * FROM i8 JOIN j8 ON i8.k = j8.k", nil,
			"left Exchange spj-off; right Exchange spj-off",
		},
		{
			"equal, v2 bucketing on by default in 4.1, grouping off", "4.1", "SELECT * FROM i8 JOIN j8 ON i8.k = j8.k", nil,
			"left Exchange spj-off; right Exchange spj-off",
		},
		{
			"equal, 4.1 default plus preserve-data-grouping", "4.1", "SELECT * FROM i8 JOIN j8 ON i8.k = j8.k",
			[]string{ConfIcebergPreserveGrouping, "true"},
			"left none satisfied; right none satisfied",
		},
		{
			"equal", "3.5", "SELECT * FROM i8 JOIN j8 ON i8.k = j8.k", spj,
			"left none satisfied; right none satisfied",
		},
		{
			"no SPJ before 3.3", "3.2", "SELECT * FROM i8 JOIN j8 ON i8.k = j8.k", spj,
			"left Exchange datasource-v2; right Exchange datasource-v2",
		},
		{
			"bucket counts differ", "3.5", "SELECT * FROM i8 JOIN i4 ON i8.k = i4.k", spj,
			"left Exchange transform-mismatch; right Exchange transform-mismatch",
		},
		{
			"bucket counts differ, compatible transforms not in 3.5", "3.5", "SELECT * FROM i8 JOIN i4 ON i8.k = i4.k",
			append([]string{ConfV2PushPartValues, "true", ConfV2CompatibleTransforms, "true"}, spj...),
			"left Exchange transform-mismatch; right Exchange transform-mismatch",
		},
		{
			"bucket counts differ, compatible transforms", "4.1", "SELECT * FROM i8 JOIN i4 ON i8.k = i4.k",
			append([]string{ConfV2CompatibleTransforms, "true"}, spj...),
			"left none satisfied; right none satisfied",
		},
		{
			"other key", "3.5", "SELECT * FROM i8 JOIN j8 ON i8.v = j8.v", spj,
			"left Exchange bucket-keys-different; right Exchange bucket-keys-different",
		},
		{
			"one side unpartitioned", "3.5", "SELECT * FROM i8 JOIN iu ON i8.k = iu.k", spj,
			"left Exchange key-grouped-one-side; right Exchange unbucketed",
		},
		{
			"one side unpartitioned, shuffle setting not in 3.5", "3.5", "SELECT * FROM i8 JOIN iu ON i8.k = iu.k",
			append([]string{ConfV2BucketingShuffle, "true"}, spj...),
			"left Exchange key-grouped-one-side; right Exchange unbucketed",
		},
		{
			"one side unpartitioned, shuffled into the grouping", "4.1", "SELECT * FROM i8 JOIN iu ON i8.k = iu.k",
			append([]string{ConfV2BucketingShuffle, "true"}, spj...),
			"left none satisfied; right Exchange unbucketed KeyGroupedPartitioning(bucket(8, k), 8)",
		},
		{
			"join keys superset", "3.5", "SELECT * FROM i8 JOIN j8 ON i8.k = j8.k AND i8.v = j8.v", spj,
			"left Exchange bucket-keys-subset; right Exchange bucket-keys-subset",
		},
		{
			"join keys superset, requireAll off", "3.5", "SELECT * FROM i8 JOIN j8 ON i8.k = j8.k AND i8.v = j8.v",
			append([]string{ConfRequireAllCoPartition, "false"}, spj...),
			"left none satisfied; right none satisfied",
		},
		{
			"partition keys superset", "3.5", "SELECT * FROM ik JOIN jk ON ik.k = jk.k", spj,
			"left Exchange bucket-keys-superset; right Exchange bucket-keys-superset",
		},
		{
			"partition keys superset, subset allowed", "4.1", "SELECT * FROM ik JOIN jk ON ik.k = jk.k",
			append([]string{ConfRequireAllCoPartition, "false", ConfV2AllowJoinKeysSubset, "true"}, spj...),
			"left none satisfied; right none satisfied",
		},
		{
			"days transform not joined on its column", "3.5", "SELECT * FROM id JOIN j8 ON id.k = j8.k", spj,
			"left Exchange bucket-keys-different; right Exchange key-grouped-one-side",
		},
		{
			"aggregate on the source column", "3.5", "SELECT k, count(*) FROM i8 GROUP BY k", spj,
			"child none satisfied",
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			f, errs := p.ParseFile("q.sql", []byte(tc.query+";"))
			if len(errs) > 0 || len(f.Queries) != 1 {
				t.Fatalf("query: %v", errs)
			}
			v, err := ParseVersion(tc.version)
			if err != nil {
				t.Fatal(err)
			}
			confs := map[string]string{ConfBroadcastThreshold: "-1"}
			for i := 0; i+1 < len(tc.confs); i += 2 {
				confs[tc.confs[i]] = tc.confs[i+1]
			}
			res, err := Simulate(tables, f.Queries[0], Options{SparkVersion: v, Confs: confs})
			if err != nil {
				t.Fatal(err)
			}
			var got []string
			for _, d := range res.Decisions {
				if d.Inserted == InsertedSort {
					continue
				}
				if d.Inserted == InsertedExchange && !d.Cause.Shuffles() {
					t.Errorf("an Exchange under %s has cause %s, not a shuffle's", d.Node.Info().Name, d.Cause)
				}
				s := d.Side + " " + d.Inserted + " " + d.Cause.String()
				if d.Inserted == InsertedExchange {
					s += keyGroupedExchange(res)
				}
				got = append(got, s)
			}
			if strings.Join(got, "; ") != tc.want {
				t.Errorf("decisions:\n  %s\nwant:\n  %s\n%s", strings.Join(got, "; "), tc.want, dump(res))
			}
		})
	}
}

// keyGroupedExchange prints the partitioning of the plan's key-grouped Exchange, after a
// space; "" when the plan has none.
func keyGroupedExchange(res *Result) string {
	out := ""
	plan.Walk(res.Plan, func(n plan.Node) bool {
		if x, ok := n.(*plan.Exchange); ok && x.Partitioning.Kind == plan.KeyGroupedPartitioning {
			out = " " + toPart(x.Partitioning).String()
		}
		return true
	})
	return out
}
