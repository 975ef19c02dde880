package simulate

import (
	"fmt"
	"testing"

	"github.com/bucketlint/bucketlint/internal/gen"
)

// TestJoinChain plans long chains of joins (issue 14: they took minutes): over tables
// bucketed alike on the join key no join shuffles; over unbucketed tables each table is
// shuffled once. The join descriptions name a few tables and count the rest.
func TestJoinChain(t *testing.T) {
	opt := Options{SparkVersion: Version{Major: 3, Minor: 5, Patch: -1}}
	for _, shape := range []gen.ChainShape{gen.ChainNext, gen.ChainFirst} {
		for _, bucketed := range []bool{true, false} {
			t.Run(fmt.Sprintf("shape%d/bucketed=%v", shape, bucketed), func(t *testing.T) {
				const n = 300
				tables, q := gen.JoinChain(t, n, bucketed, shape)
				res, err := Simulate(tables, q, opt)
				if err != nil {
					t.Fatal(err)
				}
				want := 0
				if !bucketed {
					want = n + 1
				}
				if res.Exchanges != want {
					t.Errorf("%d Exchanges, want %d", res.Exchanges, want)
				}
				for _, d := range res.Decisions {
					if len(d.Reason) > 1000 {
						t.Fatalf("a reason of %d bytes: %.200s…", len(d.Reason), d.Reason)
					}
				}
			})
		}
	}
}

// TestJoinOutputShared: a join whose left side is the join planned last extends that output
// in place (joinOutput); no output a node already holds may change, whatever is joined or
// appended after it.
func TestJoinOutputShared(t *testing.T) {
	var s sim
	cols := func(names ...string) []attr {
		out := make([]attr, len(names))
		for i, n := range names {
			out[i] = attr{name: n}
		}
		return out
	}
	names := func(out []attr) string {
		var b []byte
		for _, a := range out {
			b = append(b, a.name...)
		}
		return string(b)
	}
	ab := s.joinOutput(cols("a"), cols("b"))
	abc := s.joinOutput(ab, cols("c"))     // extends ab's array in place
	abcd := s.joinOutput(abc, cols("d"))   // and again
	abx := s.joinOutput(ab, cols("x"))     // ab again: not the last one, copied
	abcy := s.joinOutput(abc, cols("y"))   // abc again: copied
	_ = append(abc, attr{name: "z"})       // another holder appends: copied, as abc is clipped
	abcde := s.joinOutput(abcd, cols("e")) // abcd is not the last one either
	for _, c := range []struct {
		got  []attr
		want string
	}{{ab, "ab"}, {abc, "abc"}, {abcd, "abcd"}, {abx, "abx"}, {abcy, "abcy"}, {abcde, "abcde"}} {
		if names(c.got) != c.want {
			t.Errorf("output %q, want %q", names(c.got), c.want)
		}
		if cap(c.got) != len(c.got) {
			t.Errorf("output %q has spare capacity %d", c.want, cap(c.got)-len(c.got))
		}
	}
	if &abcd[0] != &abc[0] {
		t.Error("the chain's outputs were copied, not extended in place")
	}
}
