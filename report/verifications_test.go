//go:build engine

package report

import (
	"testing"

	"github.com/bucketlint/bucketlint/engine/verify"
)

// TestVerifications: findings in one query share its verification; a finding without one
// stays nil; each finding whose proof failed counts.
func TestVerifications(t *testing.T) {
	t.Parallel()
	good := &verify.Result{Name: "a in 8 buckets", Identical: true, Before: verify.Side{Exchanges: 2}, After: verify.Side{Exchanges: 0}}
	bad := &verify.Result{Name: "b in 4 buckets", Identical: false, Before: verify.Side{Exchanges: 1, ShuffledBytes: 900}}
	got, failed := Verifications([]*verify.Result{good, nil, bad, good, bad})
	if failed != 2 {
		t.Errorf("failed = %d, want 2", failed)
	}
	if got[1] != nil || got[0] != got[3] || got[2] != got[4] {
		t.Fatalf("verifications %v: want one per result, nil for none", got)
	}
	if v := got[0]; !v.Reproduced || v.Scenario != good.Name || v.ExchangesBefore != 2 {
		t.Errorf("good: %+v", *v)
	}
	if v := got[2]; v.Reproduced || v.Identical || v.ShuffledBytesBefore != 900 {
		t.Errorf("bad: %+v", *v)
	}
}
