package report

import "testing"

func TestByteSize(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		n     int64
		small string
		want  string
	}{
		{0, "B", "0 B"},
		{1023, "bytes", "1023 bytes"},
		{1024, "B", "1.0 KiB"},
		{52_428_800, "bytes", "50.0 MiB"},
		{1 << 30, "B", "1.0 GiB"},
		{1 << 60, "B", "1024.0 PiB"},
	} {
		if got := byteSize(c.n, c.small); got != c.want {
			t.Errorf("byteSize(%d, %q) = %q, want %q", c.n, c.small, got, c.want)
		}
	}
}
