package workload_test

import (
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/bucketlint/bucketlint/parser"
	"github.com/bucketlint/bucketlint/plan"
	"github.com/bucketlint/bucketlint/workload"
)

// build writes files into a fresh directory, loads them as check would and resolves them.
// Positions name the files relative to the directory.
func build(t *testing.T, files map[string]string, cfg workload.Config) *workload.Workload {
	t.Helper()
	dir := t.TempDir()
	names := make([]string, 0, len(files))
	for name, src := range files {
		p := filepath.Join(dir, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
		names = append(names, name)
	}
	sort.Strings(names)
	t.Chdir(dir)
	p, errs := parser.Load(t.Context(), names, parser.LoadOptions{})
	if len(errs) > 0 {
		t.Fatalf("load: %v", errs)
	}
	w, err := workload.New(p, cfg)
	if err != nil {
		t.Fatal(err)
	}
	return w
}

// query returns the workload query of file whose text contains frag.
func query(t *testing.T, w *workload.Workload, file, frag string) *plan.Query {
	t.Helper()
	for _, q := range w.Queries() {
		if q.Query.Span.Start.File == file && strings.Contains(q.Query.Text, frag) {
			return q.Query
		}
	}
	t.Fatalf("no query in %s containing %q", file, frag)
	return nil
}

// shuffles simulates q and lists its Exchange decisions as "node side" strings.
func shuffles(t *testing.T, w *workload.Workload, q *plan.Query) []string {
	t.Helper()
	r, err := w.Simulate(q)
	if err != nil {
		t.Fatalf("simulate %s: %v", q.Span.Start, err)
	}
	var out []string
	for _, d := range r.Decisions {
		if d.Inserted == "Exchange" {
			out = append(out, d.Node.Info().Name+" "+d.Side)
		}
	}
	return out
}

const bucketedDDL = `CREATE TABLE orders (order_id BIGINT, customer_id BIGINT, amount DOUBLE)
USING parquet CLUSTERED BY (customer_id) INTO 8 BUCKETS;
CREATE TABLE customers (customer_id BIGINT, name STRING)
USING parquet CLUSTERED BY (customer_id) INTO 8 BUCKETS;
`

const joinSQL = "SELECT o.order_id, c.name FROM orders o JOIN customers c ON o.customer_id = c.customer_id"

// laterJoinSQL is joinSQL written with other aliases, to tell a script's two queries apart.
const laterJoinSQL = "SELECT o2.order_id, c2.name FROM orders o2 JOIN customers c2 ON o2.customer_id = c2.customer_id"
