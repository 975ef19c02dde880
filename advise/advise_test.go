package advise

import (
	"bytes"
	"fmt"
	"strconv"
	"strings"
	"testing"

	"github.com/bucketlint/bucketlint/parser/sql"
	"github.com/bucketlint/bucketlint/plan"
	"github.com/bucketlint/bucketlint/simulate"
)

const adviseDDL = `
CREATE TABLE orders (order_id BIGINT, customer_id BIGINT, amount DOUBLE, day DATE) USING parquet CLUSTERED BY (customer_id) INTO 8 BUCKETS;
CREATE TABLE customers (customer_id INT, name STRING, country STRING) USING parquet CLUSTERED BY (customer_id) INTO 16 BUCKETS;
CREATE TABLE lineitem (order_id BIGINT, sku STRING, qty INT) USING parquet;
CREATE TABLE countries (country STRING, region STRING) USING parquet;
CREATE TABLE events (user_id BIGINT, kind STRING, ts TIMESTAMP) USING parquet;
`

var adviseQueries = []struct {
	sql    string
	weight float64
}{
	{"SELECT * FROM orders o JOIN customers c ON o.customer_id = c.customer_id", 10},
	{"SELECT o.order_id, sum(l.qty) FROM orders o JOIN lineitem l ON o.order_id = l.order_id GROUP BY o.order_id", 2},
	{"SELECT c.name, r.region FROM customers c JOIN countries r ON c.country = r.country", 5},
	{"SELECT customer_id, count(*) FROM orders GROUP BY customer_id", 3},
	{"SELECT user_id, kind, count(*) FROM events GROUP BY user_id, kind", 4},
}

func adviseFixture(tb testing.TB) (map[string]*plan.Table, []WeightedQuery) {
	tb.Helper()
	p, err := sql.New()
	if err != nil {
		tb.Fatal(err)
	}
	f, errs := p.ParseFile("ddl.sql", []byte(adviseDDL))
	if len(errs) > 0 {
		tb.Fatal(errs)
	}
	sizes := map[string]int64{"orders": 40 << 30, "customers": 3 << 30, "lineitem": 90 << 30, "countries": 8 << 10, "events": 12 << 30}
	tables := map[string]*plan.Table{}
	for _, tb := range f.Tables {
		tb.SizeInBytes = sizes[tb.Name]
		tables[tb.Name] = tb
	}
	var wl []WeightedQuery
	for _, q := range adviseQueries {
		qf, errs := p.ParseFile("q.sql", []byte(q.sql))
		if len(errs) > 0 {
			tb.Fatal(errs)
		}
		wl = append(wl, WeightedQuery{Query: qf.Queries[0], Weight: q.weight})
	}
	return tables, wl
}

// TestAdviseRemovesShuffles checks every fix the advice claims: simulating the advised layout
// leaves no Exchange under the join or aggregation it names.
func TestAdviseRemovesShuffles(t *testing.T) {
	tables, wl := adviseFixture(t)
	for _, v := range []string{"3.0.1", "3.2", "3.5", "4.0"} {
		ver, _ := simulate.ParseVersion(v)
		recs := Advise(tables, wl, Options{Spark: simulate.Options{SparkVersion: ver}, ClusterCores: 64, PowerOfTwo: true})
		byTable := map[string]Recommendation{}
		fixes := 0
		for _, r := range recs {
			byTable[r.Table] = r
			for _, f := range r.Fixes {
				fixes++
				after := outcome(r, f.Query)
				if after == nil {
					t.Fatalf("%s: %s: no simulation of query %d", v, r.Table, f.Query)
				}
				if side := fixedSides(after.Plan, f); side != "" {
					t.Errorf("Spark %s: %s claims %s but the advised layout still shuffles: %s\n%s", v, r.Table, f, side, dump(after))
				}
			}
		}
		if fixes == 0 {
			t.Fatalf("Spark %s: no fixes claimed", v)
		}
		o, c := byTable["orders"], byTable["customers"]
		if o.Bucket == nil || c.Bucket == nil || o.Bucket.NumBuckets != c.Bucket.NumBuckets || o.Bucket.Columns[0] != "customer_id" {
			t.Errorf("Spark %s: orders/customers not co-bucketed: %+v %+v", v, o.Bucket, c.Bucket)
		}
		if c.CastColumns["customer_id"] != "bigint" {
			t.Errorf("Spark %s: customers.customer_id should be widened to bigint: %v", v, c.CastColumns)
		}
		if r, ok := byTable["countries"]; !ok || r.Bucket != nil || !strings.Contains(r.Reason, "broadcast") {
			t.Errorf("Spark %s: countries should be left unbucketed for broadcast: %+v", v, r)
		}
		if e := byTable["events"]; e.Bucket == nil || len(e.Bucket.Columns) != 1 {
			t.Errorf("Spark %s: events should be bucketed on one grouping column: %+v", v, e.Bucket)
		}
		if !strings.Contains(o.Code.SQL, "CLUSTERED BY (customer_id) SORTED BY (customer_id) INTO") || !strings.Contains(o.Code.PySpark, ".bucketBy(") {
			t.Errorf("Spark %s: code missing: %+v", v, o.Code)
		}
		if o.ShufflesRemoved <= 0 {
			t.Errorf("Spark %s: orders advice removes no shuffle", v)
		}
	}
}

func outcome(r Recommendation, q int) *simulate.Result {
	for _, o := range r.Queries {
		if o.Index == q {
			return o.After
		}
	}
	return nil
}

// fixedSides returns a description of an Exchange left under the operator a fix names.
func fixedSides(root plan.Node, f Fix) string {
	bad := ""
	plan.Walk(root, func(n plan.Node) bool {
		switch f.What {
		case "join":
			if j, ok := plan.JoinOf(n); ok && len(n.Children()) == 2 {
				lt, rt := tableUnder(n.Children()[0]), tableUnder(n.Children()[1])
				if (lt == f.Tables[0] && rt == f.Tables[1]) || (lt == f.Tables[1] && rt == f.Tables[0]) {
					for _, c := range n.Children() {
						if strings.Contains(sideSpec(c), "E") {
							bad = string(j.Strategy) + " side " + sideSpec(c)
						}
					}
				}
			}
		case "aggregate":
			if g, ok := plan.AggregateOf(n); ok && g.Mode == plan.FinalAggregate && tableUnder(n.Children()[0]) == f.Tables[0] {
				if strings.Contains(sideSpec(n.Children()[0]), "E") {
					bad = "aggregate input " + sideSpec(n.Children()[0])
				}
			}
		}
		return true
	})
	return bad
}

// TestAdviseCoalescedCounts: with bucket coalescing on (and adaptive execution off before
// 3.5), a big and a small table get different counts within maxBucketRatio, and the join still
// needs no Exchange.
func TestAdviseCoalescedCounts(t *testing.T) {
	tables, wl := adviseFixture(t)
	ver, _ := simulate.ParseVersion("3.5")
	opt := Options{Spark: simulate.Options{SparkVersion: ver, Confs: map[string]string{simulate.ConfCoalesceBuckets: "true"}}, ClusterCores: 16, PowerOfTwo: true}
	recs := Advise(tables, wl[:1], opt)
	counts := map[string]int{}
	for _, r := range recs {
		if r.Bucket != nil {
			counts[r.Table] = r.Bucket.NumBuckets
		}
		for _, f := range r.Fixes {
			if bad := fixedSides(outcome(r, f.Query).Plan, f); bad != "" {
				t.Errorf("%s: %s still shuffles: %s", r.Table, f, bad)
			}
		}
	}
	if counts["orders"] != 4*counts["customers"] || counts["customers"] == 0 {
		t.Errorf("counts = %v, want orders = 4 × customers", counts)
	}
}

// dump prints a simulation for a failure message: the plan, the decisions, what was not
// modelled.
func dump(r *simulate.Result) string {
	var b bytes.Buffer
	fmt.Fprintf(&b, "spark %s era %s exchanges=%d sorts=%d\n", r.Version, r.Era, r.Exchanges, r.Sorts)
	_ = plan.Fprint(&b, &plan.Explain{Mode: "simple", Plans: []plan.Section{{Name: "Physical Plan", Root: r.Plan}}})
	for _, d := range r.Decisions {
		fmt.Fprintf(&b, "decision %s %s %s: %s\n", d.Node.Info().Name, d.Side, d.Inserted, d.Reason)
	}
	for _, u := range r.Unmodelled {
		fmt.Fprintf(&b, "unmodelled: %s\n", u)
	}
	return b.String()
}

// sideSpec lists the Sort (S), Exchange (E<n>) and BroadcastExchange (B) operators directly
// above a child, top-down: "S,E8", or "none".
func sideSpec(n plan.Node) string {
	var parts []string
	for n != nil {
		switch x := n.(type) {
		case *plan.Sort:
			parts = append(parts, "S")
		case *plan.Exchange:
			parts = append(parts, "E"+strconv.Itoa(x.Partitioning.NumPartitions))
		case *plan.BroadcastExchange:
			parts = append(parts, "B")
		default:
			n = nil
			continue
		}
		kids := n.Children()
		if len(kids) != 1 {
			break
		}
		n = kids[0]
	}
	if len(parts) == 0 {
		return "none"
	}
	return strings.Join(parts, ",")
}
