package workload_test

import (
	"fmt"
	"strings"
	"sync"
	"testing"

	"github.com/bucketlint/bucketlint/simulate"
	"github.com/bucketlint/bucketlint/workload"
)

// TestConcurrentCallers asks one workload for its join sites and every query's simulation
// from many goroutines at once, as rules run side by side do, and wants every caller given
// the same sites and results; the sites must be those one worker builds, in the same order.
func TestConcurrentCallers(t *testing.T) {
	files := map[string]string{
		"ddl.sql": "CREATE TABLE a (k INT, v INT) USING parquet CLUSTERED BY (k) INTO 8 BUCKETS;\n" +
			"CREATE TABLE b (k INT, w INT) USING parquet CLUSTERED BY (k) INTO 16 BUCKETS;\n" +
			"CREATE TABLE c (k INT, x INT) USING parquet;\n",
		"job.py": "a = spark.table(\"a\")\nc = spark.table(\"c\")\na.join(c, \"k\").count()\n",
	}
	var q strings.Builder
	for i := range 40 {
		fmt.Fprintf(&q, "SET spark.sql.shuffle.partitions=%d;\nSELECT * FROM a JOIN b ON a.k = b.k JOIN c ON c.k = b.k WHERE a.v > %d;\n", 100+i, i)
	}
	files["q.sql"] = q.String()
	serial := build(t, files, workload.Config{Workers: 1})
	want := describeSites(serial.Sites(0))
	if n := strings.Count(want, "\n"); n != 81 {
		t.Fatalf("%d sites, want 81 (two joins in each of 40 queries, one in code):\n%s", n, want)
	}
	for _, workers := range []int{2, 5} {
		w := build(t, files, workload.Config{Workers: workers})
		queries := w.Queries()
		const callers = 8
		sites := make([][]*workload.Site, callers)
		sims := make([][]*simulate.Result, callers)
		var wg sync.WaitGroup
		for c := range callers {
			wg.Go(func() {
				for i := range queries {
					q := queries[(i+c*7)%len(queries)] // each caller in another order
					res, _ := w.Simulate(q.Query)
					sims[c] = append(sims[c], res)
				}
				sites[c] = w.Sites(0)
			})
		}
		wg.Wait()
		if got := describeSites(sites[0]); got != want {
			t.Errorf("%d workers: sites differ from one worker's:\n%s\nwant\n%s", workers, got, want)
		}
		for c := range callers {
			if len(sites[c]) == 0 || &sites[c][0] != &sites[0][0] {
				t.Errorf("%d workers: caller %d got other sites than caller 0", workers, c)
			}
			for i, res := range sims[c] {
				first := sims[0][(i+c*7)%len(queries)]
				if res == nil || res != first {
					t.Errorf("%d workers: caller %d query %d: another simulation than caller 0's", workers, c, i)
				}
			}
		}
	}
}

// describeSites prints each site's position, sides and whether each is shuffled.
func describeSites(sites []*workload.Site) string {
	var b strings.Builder
	for _, s := range sites {
		fmt.Fprintf(&b, "%s %s %s %v/%v %v\n", s.Span.Start, s.Left.Label, s.Right.Label, s.Left.Shuffled, s.Right.Shuffled, s.Known)
	}
	return b.String()
}
