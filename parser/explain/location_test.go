package explain

import (
	"slices"
	"testing"
)

// TestLocationPaths reads the paths a file index lists.
func TestLocationPaths(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		in   string
		want []string
	}{
		{"InMemoryFileIndex(2 paths)[file:/a, file:/b]", []string{"file:/a", "file:/b"}},
		{"InMemoryFileIndex[file:/warehouse/orders]", []string{"file:/warehouse/orders"}},
		{"InMemoryFileIndex(1 paths)[]", nil},
		{"[not included in comparison]/{warehouse_dir}/t", nil},
		{"CatalogFileIndex", nil},
	} {
		if got := locationPaths(tc.in); !slices.Equal(got, tc.want) {
			t.Errorf("locationPaths(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
}
