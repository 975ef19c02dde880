package explain

import (
	"testing"

	"github.com/bucketlint/bucketlint/plan"
)

// TestBucketedCause checks the typed companion of the reason printed after "Bucketed:".
func TestBucketedCause(t *testing.T) {
	tests := []struct {
		field  string
		reason string
		want   plan.BucketedCause
	}{
		{"true", "", plan.NotBucketedNone},
		{"false (disabled by configuration)", "disabled by configuration", plan.NotBucketedByConfiguration},
		{"false (disabled by query planner)", "disabled by query planner", plan.NotBucketedByPlanner},
		{"false (bucket column(s) not read)", "bucket column(s) not read", plan.NotBucketedColumnsNotRead},
		{"false (disabled by a future rule)", "disabled by a future rule", plan.NotBucketedOther},
		{"false", "", plan.NotBucketedNone},
	}
	for _, tt := range tests {
		t.Run(tt.field, func(t *testing.T) {
			x := &plan.FileScan{}
			new(arena).scanField(x, "Bucketed", tt.field)
			if x.BucketedReason != tt.reason || x.BucketedCause != tt.want {
				t.Errorf("Bucketed: %s → reason %q cause %d, want %q %d", tt.field, x.BucketedReason, x.BucketedCause, tt.reason, tt.want)
			}
			if tt.want != plan.NotBucketedOther && tt.want.String() != tt.reason {
				t.Errorf("cause %d prints %q, want %q", tt.want, tt.want.String(), tt.reason)
			}
		})
	}
}
