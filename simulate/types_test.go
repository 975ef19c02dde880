package simulate

import (
	"strings"
	"testing"

	"github.com/bucketlint/bucketlint/parser/sql"
	"github.com/bucketlint/bucketlint/plan"
)

// TestTypeAliasesJoinAsOne: a key declared INTEGER on one side and INT on the other is the
// same type (the parser makes types canonical), so the join neither casts nor shuffles.
func TestTypeAliasesJoinAsOne(t *testing.T) {
	t.Parallel()
	p, err := sql.New()
	if err != nil {
		t.Fatal(err)
	}
	pf, errs := p.ParseFile("q.sql", []byte(`
CREATE TABLE a (k INTEGER, v LONG) USING parquet CLUSTERED BY (k) INTO 8 BUCKETS;
CREATE TABLE b (k INT, w BIGINT) USING parquet CLUSTERED BY (k) INTO 8 BUCKETS;
SELECT * FROM a JOIN b ON a.k = b.k;`))
	if len(errs) > 0 {
		t.Fatal(errs)
	}
	tables := map[string]*plan.Table{}
	for _, tb := range pf.Tables {
		tables[tb.Name] = tb
	}
	res, err := Simulate(tables, pf.Queries[0], Options{SparkVersion: Version{3, 5, -1}, Confs: map[string]string{ConfBroadcastThreshold: "-1"}})
	if err != nil {
		t.Fatal(err)
	}
	if res.Exchanges != 0 {
		t.Errorf("%d exchanges, want 0", res.Exchanges)
	}
	for _, n := range res.Unmodelled {
		if strings.Contains(n, "differ") {
			t.Errorf("note %q", n)
		}
	}
}
