//go:build engine

package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

const connectWorkload = `CREATE TABLE shop.orders (order_id BIGINT, cust_id INT, amount BIGINT) USING parquet CLUSTERED BY (cust_id) INTO 6 BUCKETS;
CREATE TABLE shop.customers (cust_id INT, name STRING) USING parquet CLUSTERED BY (cust_id) INTO 8 BUCKETS;
SELECT o.cust_id, c.name, sum(o.amount) AS total FROM shop.orders o JOIN shop.customers c ON o.cust_id = c.cust_id GROUP BY o.cust_id, c.name;
`

func TestVerifyConnectFlags(t *testing.T) {
	work := t.TempDir()
	if err := os.WriteFile(filepath.Join(work, "w.sql"), []byte(connectWorkload), 0o600); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name string
		args []string
		want string
	}{
		{"sample_needs_connect", []string{"verify", "--sample", "5", work}, "--sample needs --spark sc://"},
		{"sample_is_a_percentage", []string{"verify", "--spark", "sc://127.0.0.1:1", "--sample", "150", work}, "want a percentage"},
		{"other_masters_are_refused", []string{"verify", "--spark", "yarn", work}, "sc://host:port"},
		{"an_absent_server_is_an_error", []string{"verify", "--spark", "sc://127.0.0.1:1", work}, "spark connect sc://127.0.0.1:1"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var stdout, stderr strings.Builder
			code := run(tc.args, strings.NewReader(""), &stdout, &stderr)
			if code != 2 || !strings.Contains(stderr.String(), tc.want) {
				t.Errorf("exit %d, stderr %q; want 2 and %q", code, stderr.String(), tc.want)
			}
		})
	}
}

// TestVerifyConnectRedactsToken: the token of a Spark Connect URL shows in no message, when
// the URL is refused and when the server cannot be reached (issue 14).
func TestVerifyConnectRedactsToken(t *testing.T) {
	work := t.TempDir()
	if err := os.WriteFile(filepath.Join(work, "w.sql"), []byte(connectWorkload), 0o600); err != nil {
		t.Fatal(err)
	}
	const secret = "tok-9f8e7d6c5b"
	for _, remote := range []string{"sc://127.0.0.1:1/;token=" + secret, "sk://127.0.0.1:1/;token=" + secret} {
		var stdout, stderr strings.Builder
		code := run([]string{"verify", "--spark", remote, work}, strings.NewReader(""), &stdout, &stderr)
		if code != 2 || strings.Contains(stdout.String()+stderr.String(), secret) || !strings.Contains(stderr.String(), "token=***") {
			t.Errorf("%s: exit %d, stderr %q; want 2 and the token redacted", remote, code, stderr.String())
		}
	}
}
