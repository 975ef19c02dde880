//go:build engine

package verify

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestPlanAppliesWhere: the predicted plans run as the simulator predicts them (no WHERE
// clause reapplied, no literal or cast rewritten) return exactly the groups the query
// selects: a partition filter with a DATE literal, a condition on the other relation and a
// join key that Spark casts from int to bigint.
func TestPlanAppliesWhere(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	var accounts, txns strings.Builder
	accounts.WriteString("account_id,customer_id,status\n")
	closed := map[int]bool{}
	for i := range 200 {
		status := "OPEN"
		if i%7 == 0 {
			status, closed[i] = "CLOSED", true
		}
		fmt.Fprintf(&accounts, "%d,%d,%s\n", i, i*10, status)
	}
	txns.WriteString("txn_id,account_id,amount,channel,day\n")
	want := map[int]bool{}
	for i := range 3000 {
		acct, day := (i*37)%260, "2024-06-29"
		if i%3 == 0 {
			day = "2024-06-30"
			if acct < 200 && !closed[acct] {
				want[acct] = true
			}
		}
		fmt.Fprintf(&txns, "%d,%d,%d.25,web,%s\n", i, acct, i%50, day)
	}
	for name, body := range map[string]string{"accounts.csv": accounts.String(), "txns.csv": txns.String()} {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(body), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	src := strings.Replace(txnDDL, "WHERE a.status <> 'CLOSED'", "WHERE t.day = DATE'2024-06-30' AND a.status <> 'CLOSED'", 1)
	sc := advised(t, src)
	sc[0].Data = map[string]TableData{
		"finance.accounts":     {Path: filepath.Join(dir, "accounts.csv")},
		"finance.transactions": {Path: filepath.Join(dir, "txns.csv")},
	}
	r := runIn(t, t.TempDir(), sc)[0]
	if !r.Identical || r.Rows != int64(len(want)) || len(want) == 0 {
		t.Fatalf("%d groups (identical %v), want %d: %+v", r.Rows, r.Identical, len(want), r)
	}
}
