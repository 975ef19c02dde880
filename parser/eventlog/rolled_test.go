package eventlog

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"
)

// TestRolledFilesInOrder cuts a recorded plain log into the files of a rolled log (Spark's
// smallest rolling size, 10 MiB, is more than these logs hold) and reads it back: the same
// executions with the same figures, the files read by their index (events_10 after events_9),
// and from the last compacted file on.
func TestRolledFilesInOrder(t *testing.T) {
	plain := logOf(t, "../../fixtures/eventlog/3.5/plain")
	src, err := os.ReadFile(plain)
	if err != nil {
		t.Fatal(err)
	}
	lines := bytes.SplitAfter(src, []byte("\n"))
	want := totals(t, plain)
	for _, c := range []struct {
		name    string
		files   map[string][][]byte
		partial bool
	}{
		{"by index", map[string][][]byte{
			"events_9_app": lines[:len(lines)/3], "events_10_app": lines[len(lines)/3 : 2*len(lines)/3],
			"events_11_app": lines[2*len(lines)/3:], "appstatus_app": nil,
		}, false},
		{"compacted", map[string][][]byte{
			"events_1_app": {[]byte("not read\n")}, "events_2_app.compact": lines[:len(lines)/2],
			"events_3_app": lines[len(lines)/2:], "appstatus_app.inprogress": nil,
		}, true},
	} {
		t.Run(c.name, func(t *testing.T) {
			dir := filepath.Join(t.TempDir(), "eventlog_v2_app")
			if err := os.Mkdir(dir, 0o755); err != nil {
				t.Fatal(err)
			}
			for name, ls := range c.files {
				if err := os.WriteFile(filepath.Join(dir, name), bytes.Join(ls, nil), 0o600); err != nil {
					t.Fatal(err)
				}
			}
			got := totals(t, dir)
			if len(got) != len(want) {
				t.Fatalf("%d metric totals, want %d", len(got), len(want))
			}
			for k, v := range want {
				if got[k] != v {
					t.Errorf("accumulator %d = %d, want %d", k, got[k], v)
				}
			}
			app, _ := Read(dir, Options{}, nil)
			if app.Incomplete != c.partial {
				t.Errorf("incomplete %v, want %v", app.Incomplete, c.partial)
			}
		})
	}
}

// totals reads a log and returns every metric total by accumulator id.
func totals(t *testing.T, path string) map[int64]int64 {
	t.Helper()
	out := map[int64]int64{}
	if _, err := Read(path, Options{}, func(e *Execution) error {
		e.Plan.Walk(func(n *Node) {
			for _, m := range n.Metrics {
				out[m.Accumulator] = m.Value
			}
		})
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	return out
}
