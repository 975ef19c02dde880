//go:build engine

package main

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestVerifySparkLive runs `bucketlint verify --spark local[2] --format json` on one small
// workload: the engine must be reported as spark, Spark's Exchange counts must equal the
// prediction and its rows the engine's. Opt-in: BUCKETLINT_SPARK set, and a pyspark venv
// ($BUCKETLINT_PYTHON or ${BUCKETLINT_VENV_DIR:-~/.cache/bucketlint}/venv-3.5*).
func TestVerifySparkLive(t *testing.T) {
	if os.Getenv("BUCKETLINT_SPARK") == "" {
		t.Skip("set BUCKETLINT_SPARK=1 to run against a local Spark")
	}
	dir := t.TempDir()
	work := filepath.Join(dir, "work.sql")
	sql := `CREATE TABLE shop.orders (order_id BIGINT, customer_id BIGINT, amount DECIMAL(12,2), status STRING) USING parquet CLUSTERED BY (customer_id) INTO 8 BUCKETS;
CREATE TABLE shop.customers (customer_id INT, name STRING, region STRING) USING parquet;
SELECT c.region, count(*) AS orders, sum(o.amount) AS revenue
FROM shop.orders o JOIN shop.customers c ON o.customer_id = c.customer_id
WHERE o.status <> 'cancelled'
GROUP BY c.region;
`
	if err := os.WriteFile(work, []byte(sql), 0o600); err != nil {
		t.Fatal(err)
	}
	var stdout, stderr bytes.Buffer
	code := run([]string{"verify", "--spark", "local[2]", "--rows", "3000", "--format", "json", work}, strings.NewReader(""), &stdout, &stderr)
	if code != exitOK {
		t.Fatalf("exit %d\n%s\n%s", code, stdout.String(), stderr.String())
	}
	var out struct {
		Scenarios []struct {
			Engine     string `json:"engine"`
			Reproduced bool   `json:"reproduced"`
			Checksum   string `json:"checksum"`
			Spark      *struct {
				Version string `json:"version"`
				Agrees  bool   `json:"agrees"`
				After   struct {
					Checksum string `json:"checksum"`
				} `json:"after"`
			} `json:"spark"`
		} `json:"scenarios"`
	}
	if err := json.Unmarshal(stdout.Bytes(), &out); err != nil {
		t.Fatal(err)
	}
	if len(out.Scenarios) != 1 {
		t.Fatalf("%d scenarios\n%s", len(out.Scenarios), stdout.String())
	}
	s := out.Scenarios[0]
	if s.Engine != "spark" || s.Spark == nil || !s.Spark.Agrees || !s.Reproduced || s.Spark.After.Checksum != s.Checksum {
		t.Fatalf("%s", stdout.String())
	}
	t.Logf("spark %s agrees: checksum %s", s.Spark.Version, s.Checksum)
}
