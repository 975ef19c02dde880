//go:build engine

package store

import (
	"bytes"
	"flag"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"testing"

	"github.com/parquet-go/parquet-go"
)

var update = flag.Bool("update", false, "rewrite engine/testdata/coded")

// codedFixture returns the bytes of a table of engine/testdata/coded: rows (k bigint, s string,
// v bigint) with k and s drawn from 60 values, NULL in 5 of 60 draws when nulls is set,
// written by parquet-go with dictionary pages (dict) or PLAIN ones.
func codedFixture(tb testing.TB, rows int, seed uint64, nulls, dict bool) []byte {
	tb.Helper()
	type dictRow struct {
		K *int64  `parquet:"k,optional,dict"`
		S *string `parquet:"s,optional,dict"`
		V int64   `parquet:"v"`
	}
	type plainRow struct {
		K *int64  `parquet:"k,optional,plain"`
		S *string `parquet:"s,optional,plain"`
		V int64   `parquet:"v"`
	}
	r := rand.New(rand.NewPCG(seed, seed))
	var drows []dictRow
	var prows []plainRow
	for i := range rows {
		var k *int64
		var s *string
		if x := r.IntN(60); x < 55 || !nulls {
			k = new(int64(x * 1_000_003))
			s = new(fmt.Sprint("key-", x))
		}
		drows = append(drows, dictRow{K: k, S: s, V: int64(i)})
		prows = append(prows, plainRow{K: k, S: s, V: int64(i)})
	}
	var buf bytes.Buffer
	var err error
	if dict {
		err = parquet.Write(&buf, drows, parquet.Compression(&parquet.Snappy))
	} else {
		err = parquet.Write(&buf, prows, parquet.Compression(&parquet.Snappy))
	}
	if err != nil {
		tb.Fatal(err)
	}
	return buf.Bytes()
}

// TestCodedFixtures checks (or with -update writes) engine/testdata/coded, the tables engine/
// exec's TestCodedJoinsAndAggregatesAgree reads with and without dictionary codes: a probe
// side of 5,000 rows with and without NULL keys, a build side of 400 with NULL keys.
func TestCodedFixtures(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		name  string
		rows  int
		seed  uint64
		nulls bool
	}{{"p_nulls", 5000, 1, true}, {"p_nonulls", 5000, 1, false}, {"b_nulls", 400, 2, true}} {
		for _, dict := range []bool{true, false} {
			dir := filepath.Join("../testdata/coded", c.name+map[bool]string{true: "_dict", false: "_plain"}[dict])
			path := filepath.Join(dir, "part-00000.snappy.parquet")
			want := codedFixture(t, c.rows, c.seed, c.nulls, dict)
			if *update {
				if err := os.MkdirAll(dir, 0o755); err != nil {
					t.Fatal(err)
				}
				if err := os.WriteFile(path, want, 0o644); err != nil {
					t.Fatal(err)
				}
				continue
			}
			got, err := os.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			if !bytes.Equal(got, want) {
				t.Errorf("%s differs from what parquet-go writes now; rewrite it with -update", path)
			}
		}
	}
}
