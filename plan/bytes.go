package plan

import "fmt"

// FormatBytes prints a byte count for people in binary units with one decimal, "9.5 MiB",
// "1.2 GiB", up to PiB; a count below 1 KiB is printed whole: "512 B". Tables and figures
// use it; prose uses SizeText.
func FormatBytes(n int64) string { return formatBytes(n, "B") }

// SizeText is a size as a sentence says it: FormatBytes's wording, but "512 bytes" below 1 KiB
// and "of unknown size" for a negative (unknown) size, so that "orders is %s" reads either way.
func SizeText(n int64) string {
	if n < 0 {
		return "of unknown size"
	}
	return formatBytes(n, "bytes")
}

// formatBytes is FormatBytes with the unit of a count below 1 KiB given.
func formatBytes(n int64, small string) string {
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
