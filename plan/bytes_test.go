package plan

import "testing"

// TestFormatBytes pins both wordings at each unit's edge: whole below 1 KiB, one decimal from
// KiB to PiB.
func TestFormatBytes(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		n          int64
		short, say string
	}{
		{-1, "-1 B", "of unknown size"},
		{0, "0 B", "0 bytes"},
		{512, "512 B", "512 bytes"},
		{1023, "1023 B", "1023 bytes"},
		{1 << 10, "1.0 KiB", "1.0 KiB"},
		{40000, "39.1 KiB", "39.1 KiB"},
		{1<<20 - 1, "1024.0 KiB", "1024.0 KiB"},
		{52_428_800, "50.0 MiB", "50.0 MiB"},
		{10_000_000, "9.5 MiB", "9.5 MiB"},
		{10 << 20, "10.0 MiB", "10.0 MiB"},
		{3 << 29, "1.5 GiB", "1.5 GiB"},
		{3 << 30, "3.0 GiB", "3.0 GiB"},
		{1<<40 - 1, "1024.0 GiB", "1024.0 GiB"},
		{3 << 40, "3.0 TiB", "3.0 TiB"},
		{5 << 50, "5.0 PiB", "5.0 PiB"},
		{1 << 60, "1024.0 PiB", "1024.0 PiB"},
	} {
		if got := FormatBytes(c.n); got != c.short {
			t.Errorf("FormatBytes(%d) = %q, want %q", c.n, got, c.short)
		}
		if got := SizeText(c.n); got != c.say {
			t.Errorf("SizeText(%d) = %q, want %q", c.n, got, c.say)
		}
	}
}
