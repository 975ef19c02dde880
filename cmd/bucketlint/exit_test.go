//go:build unix

package main

import (
	"bytes"
	"os"
	"strings"
	"syscall"
	"testing"
	"time"
)

// TestExitCodes runs each situation of docs/exit-codes.md through every command that can
// meet it: the same situation gives the same code whatever the command.
func TestExitCodes(t *testing.T) {
	dir := t.TempDir()
	t.Chdir(dir)
	ddl := "CREATE TABLE a (k INT, v INT) USING parquet CLUSTERED BY (k) INTO 8 BUCKETS;\n" +
		"CREATE TABLE b (k INT, w INT) USING parquet CLUSTERED BY (k) INTO 8 BUCKETS;\n"
	files := map[string]string{
		"q.sql":   ddl + "SELECT * FROM a JOIN b ON a.k = b.k;\n",
		"big.sql": ddl + strings.Repeat("-- padding\n", 200) + "SELECT * FROM a JOIN b ON a.k = b.k;\n",
		"nul.sql": "SELECT 1;\x00\n",
		"plan.txt": "== Physical Plan ==\n*(1) Project [k#1]\n+- *(1) ColumnarToRow\n" +
			"   +- FileScan parquet default.a[k#1] Batched: true, DataFilters: [], Format: Parquet\n",
	}
	for name, text := range files {
		if err := os.WriteFile(name, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if err := syscall.Mkfifo("pipe.sql", 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink("/dev/zero", "zero.sql"); err != nil {
		t.Fatal(err)
	}
	type run struct {
		args []string
		want int
	}
	missing := []run{
		{[]string{"check", "nope.sql"}, exitUsage},
		{[]string{"check", "q.sql", "nope.sql"}, exitUsage},
		{[]string{"check", "--tables", "nope.sql", "q.sql"}, exitUsage},
		{[]string{"check", "--baseline", "nope.json", "q.sql"}, exitUsage},
		{[]string{"check", "--config", "nope.yaml", "q.sql"}, exitUsage},
		{[]string{"plan", "nope.txt"}, exitUsage},
		{[]string{"simulate", "nope.sql"}, exitUsage},
		{[]string{"simulate", "--explain", "nope.txt", "q.sql"}, exitUsage},
		{[]string{"advise", "nope.sql"}, exitUsage},
		{[]string{"verify", "nope.sql"}, exitUsage},
		{[]string{"tables", "nope.sql"}, exitUsage},
	}
	unreadable := []run{}
	for _, f := range []string{"pipe.sql", "zero.sql", "/dev/zero", "nul.sql", "big.sql"} {
		unreadable = append(unreadable,
			run{[]string{"check", "--max-input-size", "1KB", f, "q.sql"}, exitParse},
			run{[]string{"plan", "--max-input-size", "1KB", f}, exitParse},
			run{[]string{"simulate", "--max-input-size", "1KB", f}, exitParse},
			run{[]string{"simulate", "--max-input-size", "1KB", "--explain", f, "q.sql"}, exitParse},
			run{[]string{"advise", "--max-input-size", "1KB", f}, exitParse},
			run{[]string{"advise", "--max-input-size", "1KB", f, "q.sql"}, exitParse},
			run{[]string{"verify", "--max-input-size", "1KB", f}, exitParse},
			run{[]string{"tables", "--max-input-size", "1KB", f, "q.sql"}, exitParse},
			run{[]string{"check", "--max-input-size", "1KB", "--config", f, "q.sql"}, exitUsage},
			run{[]string{"check", "--max-input-size", "1KB", "--baseline", f, "q.sql"}, exitUsage},
		)
	}
	other := []run{
		{[]string{"check", "q.sql"}, exitOK},
		{[]string{"plan", "plan.txt"}, exitOK},
		{[]string{"hash", "--type", "char(100000000000)", "--buckets", "8", "x"}, exitUsage},
		{[]string{"rules", "--format", "nope"}, exitUsage},
		{[]string{"explain", "BL000"}, exitUsage},
		{[]string{"version", "extra"}, exitUsage},
		{[]string{"nope"}, exitUsage},
	}
	for _, c := range append(append(missing, unreadable...), other...) {
		t.Run(strings.Join(c.args, " "), func(t *testing.T) {
			var stdout, stderr bytes.Buffer
			done := make(chan int, 1)
			go func() {
				done <- runStreams(t.Context(), c.args, &streams{in: strings.NewReader(""), out: &stdout, err: &stderr})
			}()
			select {
			case code := <-done:
				if !engineBuilt && needsEngine(c.args) {
					checkNoEngine(t, code, stderr.Bytes())
				} else if code != c.want {
					t.Errorf("exit %d, want %d\nstdout:\n%s\nstderr:\n%s", code, c.want, stdout.String(), stderr.String())
				}
			case <-time.After(60 * time.Second):
				t.Fatal("the command blocked")
			}
		})
	}
}
