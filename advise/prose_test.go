package advise

import "testing"

// TestSizeBytes pins the size wording at each unit's edge: bytes below 1 KiB, one decimal
// from KiB to TiB.
func TestSizeBytes(t *testing.T) {
	for _, c := range []struct {
		n    int64
		want string
	}{
		{-1, "of unknown size"},
		{0, "0 bytes"},
		{1023, "1023 bytes"},
		{1 << 10, "1.0 KiB"},
		{8 << 10, "8.0 KiB"},
		{1<<20 - 1, "1024.0 KiB"},
		{1 << 20, "1.0 MiB"},
		{3 << 29, "1.5 GiB"},
		{1<<40 - 1, "1024.0 GiB"},
		{2 << 40, "2.0 TiB"},
		{5 << 50, "5120.0 TiB"},
	} {
		if got := sizeBytes(c.n); got != c.want {
			t.Errorf("sizeBytes(%d) = %q, want %q", c.n, got, c.want)
		}
	}
}
