//go:build engine

package store

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
)

// A Table is a table on disk: its directory, schema (partition columns included), layout and
// data files.
type Table struct {
	Name   string
	Dir    string
	Schema Schema
	Layout Layout
	Files  []File
	// Trusted says the files were written by Write in this process (Write sets it; engine/
	// verify sets it on its own directories). Reads then skip the scan of each page's runs
	// that guards against corrupt or hostile files (checkRuns): it decompresses every page
	// once more, about a sixth of the read time. Other checks still apply.
	Trusted bool
	// viaParquetGo reads every column chunk with parquet-go's page reader, never with the
	// chunk decoder (tests compare the two).
	viaParquetGo bool
}

// A File is one data file of a table.
type File struct {
	// Path is the file's path; Name its base name.
	Path string
	// Bucket is the bucket id in the file name, -1 for an unbucketed table.
	Bucket int
	// Partition holds the partition column values as written in the directory names
	// (col=value), in Layout.PartitionColumns order; nil when unpartitioned.
	Partition []string
	// Rows is the file's row count.
	Rows int64
}

// HiveDefaultPartition is the directory value Spark writes for a NULL partition value.
const HiveDefaultPartition = "__HIVE_DEFAULT_PARTITION__"

// CheckOutDir makes sure dir may receive a new table: it must not exist (it is then
// created) or be an empty directory. Nothing already there is ever overwritten or deleted.
func CheckOutDir(dir string) error {
	entries, err := os.ReadDir(dir)
	switch {
	case os.IsNotExist(err):
		if err := os.MkdirAll(dir, 0o755); err != nil {
			return fmt.Errorf("create output directory: %w", err)
		}
		return nil
	case err != nil:
		return fmt.Errorf("output directory %s: %w", dir, err)
	case len(entries) > 0:
		return fmt.Errorf("output directory %s is not empty; bucketlint writes only into an empty or new directory", dir)
	}
	return nil
}

// partitionPath returns the directory of a partition relative to the table directory.
func partitionPath(cols, values []string) string {
	parts := make([]string, len(cols))
	for i, c := range cols {
		parts[i] = c + "=" + escapePartition(values[i])
	}
	return filepath.Join(parts...)
}

// escapePartition escapes a partition value as Spark's ExternalCatalogUtils.escapePathName
// does for the characters that matter in a path.
func escapePartition(v string) string {
	const special = "\"#%'*/:=?\\\x7f{[]^"
	var sb strings.Builder
	for i := 0; i < len(v); i++ {
		c := v[i]
		if c < 0x20 || strings.IndexByte(special, c) >= 0 {
			fmt.Fprintf(&sb, "%%%02X", c)
			continue
		}
		sb.WriteByte(c)
	}
	return sb.String()
}

// unescapePartition reverses escapePartition.
func unescapePartition(v string) string {
	if !strings.Contains(v, "%") {
		return v
	}
	var sb strings.Builder
	for i := 0; i < len(v); i++ {
		if v[i] == '%' && i+2 < len(v) {
			var c byte
			if _, err := fmt.Sscanf(v[i+1:i+3], "%02X", &c); err == nil {
				sb.WriteByte(c)
				i += 2
				continue
			}
		}
		sb.WriteByte(v[i])
	}
	return sb.String()
}
