//go:build engine

package exec

import (
	"strings"
	"testing"

	"github.com/bucketlint/bucketlint/engine/hash"
	"github.com/bucketlint/bucketlint/engine/store"
)

// result builds a one-batch result of (bigint, string) rows; a "" string is NULL.
func result(t *testing.T, rows ...any) *Result {
	t.Helper()
	b := store.NewBatch([]hash.Type{{Kind: hash.KindBigInt}, {Kind: hash.KindString}}, 0)
	for i := 0; i < len(rows); i += 2 {
		b.Cols[0].AppendInt(int64(rows[i].(int)))
		if s := rows[i+1].(string); s == "" {
			b.Cols[1].AppendNull()
		} else {
			b.Cols[1].AppendString(s)
		}
		b.Len++
	}
	return &Result{Rows: []*store.Batch{b}}
}

// TestCompareRows checks multiset equality: order does not matter, multiplicity does, and
// the error names a row that only one side has.
func TestCompareRows(t *testing.T) {
	cases := []struct {
		name   string
		a, b   *Result
		errHas string
	}{
		{"same rows, other order", result(t, 1, "x", 2, "y", 3, ""), result(t, 3, "", 1, "x", 2, "y"), ""},
		{"both empty", result(t), result(t), ""},
		{"duplicates match", result(t, 1, "x", 1, "x", 2, "y"), result(t, 2, "y", 1, "x", 1, "x"), ""},
		{"multiplicity differs", result(t, 1, "x", 1, "x", 2, "y"), result(t, 1, "x", 2, "y", 2, "y"), "only in the"},
		{"extra row in the second", result(t, 1, "x"), result(t, 1, "x", 5, "z"), `row "5|z" only in the second`},
		{"extra row in the first", result(t, 1, "x", 7, ""), result(t, 1, "x"), `row "7|\\N" only in the first`},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			ca, cb, err := CompareRows(c.a, c.b)
			if c.errHas == "" {
				if err != nil {
					t.Fatalf("unexpected difference: %v", err)
				}
				if ca != cb || ca != c.a.Checksum() {
					t.Fatalf("checksums %s, %s, %s", ca, cb, c.a.Checksum())
				}
				return
			}
			if err == nil || !strings.Contains(err.Error(), c.errHas) {
				t.Fatalf("error %v, want one containing %q", err, c.errHas)
			}
		})
	}
}
