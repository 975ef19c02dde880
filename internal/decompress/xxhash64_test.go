package decompress

import (
	"strings"
	"testing"
)

func TestXXH64(t *testing.T) {
	long := strings.Repeat("0123456789abcdef", 10) // 160 bytes: stripes, lanes, words and bytes
	for _, c := range []struct {
		in   string
		want uint64
	}{
		{"", 0xef46db3751d8e999},
		{"a", 0xd24ec4f1a98c6e5b},
		{"abc", 0x44bc2cf5ad770999},
	} {
		var h xxh64
		h.reset()
		h.write([]byte(c.in))
		if got := h.sum(); got != c.want {
			t.Errorf("xxh64(%q) = %#x, want %#x", c.in, got, c.want)
		}
	}
	// Fed in pieces of every size, the hash is the same as in one piece.
	var whole xxh64
	whole.reset()
	whole.write([]byte(long))
	for step := 1; step < 40; step++ {
		var h xxh64
		h.reset()
		for i := 0; i < len(long); i += step {
			h.write([]byte(long[i:min(i+step, len(long))]))
		}
		if h.sum() != whole.sum() {
			t.Fatalf("in pieces of %d: %#x, in one: %#x", step, h.sum(), whole.sum())
		}
	}
}
