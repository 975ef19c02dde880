//go:build engine

package verify

import "testing"

func TestAsSelect(t *testing.T) {
	t.Parallel()
	_, w := workload(t, `CREATE TABLE a (k BIGINT) USING parquet; CREATE TABLE b (k BIGINT) USING parquet;
INSERT OVERWRITE TABLE b SELECT a.k FROM a JOIN a x ON a.k = x.k;
WITH q AS (SELECT k FROM a) INSERT INTO b SELECT k FROM q;
SELECT k FROM a;`)
	for i, want := range []string{"SELECT a.k FROM a JOIN a x ON a.k = x.k", "WITH q AS (SELECT k FROM a) SELECT k FROM q", "SELECT k FROM a"} {
		got := AsSelect(w[i].Query)
		if got.Text != want || got.Target != "" {
			t.Errorf("query %d: %q (target %q), want %q", i+1, got.Text, got.Target, want)
		}
	}
}
