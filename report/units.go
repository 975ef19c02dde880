package report

import "fmt"

// byteSize prints a byte count for people in binary units, "9.5 MiB", "1.2 GiB"; a count
// below 1 KiB is printed whole with the unit small: "512 B", or "512 bytes" in prose.
func byteSize(n int64, small string) string {
	const unit = 1024
	if n < unit {
		return fmt.Sprintf("%d %s", n, small)
	}
	f, u := float64(n), ""
	for _, x := range []string{"KiB", "MiB", "GiB", "TiB", "PiB"} {
		if f < unit {
			break
		}
		f, u = f/unit, x
	}
	return fmt.Sprintf("%.1f %s", f, u)
}
