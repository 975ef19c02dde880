package hash

import (
	"strings"
	"testing"
)

// TestLimits gives types and values far beyond what bucketlint pads or recurses into: each is
// a clear error, without allocating the padding or exhausting the stack.
func TestLimits(t *testing.T) {
	for _, c := range []struct {
		typ, want string
	}{
		{"char(100000000000)", "char(100000000000) is longer than the 1048576 characters bucketlint pads a value to"},
		{"character(1048577)", "char(1048577) is longer than the 1048576 characters"},
		{strings.Repeat("array<", 10*maxArrayDepth) + "int" + strings.Repeat(">", 10*maxArrayDepth), "arrays nested more than 100 deep"},
	} {
		typ, err := ParseType(c.typ)
		if err == nil {
			_, err = ParseValue(typ, "x")
		}
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%.40s: error %v, want %q", c.typ, err, c.want)
		}
	}
	// At the limits, the values are read.
	typ, err := ParseType("char(1048576)")
	if err != nil {
		t.Fatal(err)
	}
	if v, err := ParseValue(typ, "x"); err != nil || len(v.s) != MaxCharLength {
		t.Errorf("char(%d): %v", MaxCharLength, err)
	}
	deep := strings.Repeat("array<", maxArrayDepth) + "int" + strings.Repeat(">", maxArrayDepth)
	if _, err := ParseType(deep); err != nil {
		t.Errorf("arrays %d deep: %v", maxArrayDepth, err)
	}
}
