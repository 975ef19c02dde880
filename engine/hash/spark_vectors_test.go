package hash

import (
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"go.yaml.in/yaml/v3"
)

// sparkVector is one row recorded from a real Spark by `python -m oracle hashvectors`
// into testdata/spark-<version>-vectors.yaml: the column types, the values as a user types
// them, the SQL that produced the hash, Spark's hash and its pmod bucket ids.
type sparkVector struct {
	Types   []string    `yaml:"types"`
	Values  []yaml.Node `yaml:"values"`
	SQL     string      `yaml:"sql"`
	Hash    int32       `yaml:"hash"`
	Buckets map[int]int `yaml:"buckets"`
	// Hive and HiveBuckets are Spark's HiveHash and Hive bucket ids, when recorded.
	Hive        *int32      `yaml:"hive"`
	HiveBuckets map[int]int `yaml:"hive_buckets"`
}

// readSparkVectors reads a vector file: a list of vectors, or a mapping whose "vectors"
// key holds the list (leaving room for a header recording the Spark version and confs).
func readSparkVectors(t *testing.T, path string) []sparkVector {
	t.Helper()
	var doc yaml.Node
	readYAML(t, path, &doc)
	list := &doc
	if list.Kind == yaml.DocumentNode && len(list.Content) == 1 {
		list = list.Content[0]
	}
	if list.Kind == yaml.MappingNode {
		for i := 0; i+1 < len(list.Content); i += 2 {
			if list.Content[i].Value == "vectors" {
				list = list.Content[i+1]
			}
		}
	}
	var vs []sparkVector
	if err := list.Decode(&vs); err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	return vs
}

// sparkValue converts a recorded value: text as a user types it (ParseValue), YAML's
// .nan/.inf spellings for floats, or (dates, timestamps) a plain integer of days or
// microseconds.
func sparkValue(t Type, n *yaml.Node) (Value, error) {
	switch {
	case n.Tag == "!!null":
		return Null(t), nil
	case t.Kind == KindArray:
		return vectorValue(t, n)
	case t.Kind == KindString || t.Kind == KindBinary && !strings.HasPrefix(strings.ToUpper(n.Value), "X'"):
		if t.Kind == KindBinary {
			return Binary([]byte(n.Value)), nil
		}
		return parseString(t, n.Value)
	}
	s := n.Value
	switch strings.ToLower(s) {
	case ".nan":
		s = "NaN"
	case ".inf", "+.inf":
		s = "Infinity"
	case "-.inf":
		s = "-Infinity"
	}
	v, err := ParseValue(t, s)
	if err != nil && n.Tag == "!!int" {
		i, perr := strconv.ParseInt(s, 10, 64)
		switch {
		case perr != nil:
		case t.Kind == KindDate:
			return Date(int32(i)), nil
		case t.Kind == KindTimestamp || t.Kind == KindTimestampNTZ:
			return Value{typ: Type{Kind: t.Kind}, n: i}, nil
		}
	}
	return v, err
}

func sparkRow(v sparkVector) ([]Value, error) {
	if len(v.Types) != len(v.Values) {
		return nil, fmt.Errorf("%d types but %d values", len(v.Types), len(v.Values))
	}
	row := make([]Value, len(v.Types))
	for i, ts := range v.Types {
		typ, err := ParseType(ts)
		if err != nil {
			return nil, err
		}
		if row[i], err = sparkValue(typ, &v.Values[i]); err != nil {
			return nil, fmt.Errorf("column %d: %w", i, err)
		}
	}
	return row, nil
}

// TestSparkVectors checks every testdata/spark-*-vectors.yaml recorded from a real Spark.
func TestSparkVectors(t *testing.T) {
	t.Parallel()
	files, err := filepath.Glob(filepath.Join("testdata", "spark-*-vectors.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	if len(files) == 0 {
		t.Skip("no testdata/spark-*-vectors.yaml yet: record them with `python -m oracle hashvectors`")
	}
	for _, file := range files {
		version := strings.TrimSuffix(strings.TrimPrefix(filepath.Base(file), "spark-"), "-vectors.yaml")
		opts, err := OptionsFor(version)
		if err != nil {
			opts = Options{} // "4.x": every version from 3.2 on hashes alike
		}
		for i, v := range readSparkVectors(t, file) {
			t.Run(fmt.Sprintf("%s/%d/%s", version, i, v.SQL), func(t *testing.T) {
				t.Parallel()
				checkSparkVector(t, opts, v)
			})
		}
	}
}

func checkSparkVector(t *testing.T, opts Options, v sparkVector) {
	t.Helper()
	row, err := sparkRow(v)
	if err != nil {
		t.Fatalf("%s: %v", v.SQL, err)
	}
	if got := opts.Murmur3(row); got != v.Hash {
		t.Errorf("%s: hash %v = %d, Spark says %d", v.SQL, row, got, v.Hash)
	}
	for n, want := range v.Buckets {
		if got := Bucket(v.Hash, n); got != want {
			t.Errorf("%s: Bucket(%d, %d) = %d, Spark says %d", v.SQL, v.Hash, n, got, want)
		}
	}
	if v.Hive != nil {
		if got := opts.Hive(row); got != *v.Hive {
			t.Errorf("%s: hive hash %v = %d, Spark says %d", v.SQL, row, got, *v.Hive)
		}
		for n, want := range v.HiveBuckets {
			if got := HiveBucket(*v.Hive, n); got != want {
				t.Errorf("%s: HiveBucket(%d, %d) = %d, Spark says %d", v.SQL, *v.Hive, n, got, want)
			}
		}
	}
}

// TestSparkVectorHarness runs the recorded-vector checks on a small file in each accepted
// layout, built from vectors known to be right, so the harness is tested before real
// recordings exist.
func TestSparkVectorHarness(t *testing.T) {
	t.Parallel()
	body := `
- {types: [bigint], values: [1], sql: "SELECT hash(CAST(1 AS BIGINT))", hash: -1712319331, buckets: {8: 5, 16: 13, 200: 69}}
- {types: [string, string], values: ["ABC", "DEF"], sql: "SELECT hash('ABC', 'DEF')", hash: 599895104, buckets: {8: 0}}
- {types: [int, string], values: [null, null], sql: "SELECT hash(NULL, NULL)", hash: 42, buckets: {8: 2}, hive: 0, hive_buckets: {8: 0}}
- {types: [date], values: ["2017-01-01"], sql: "SELECT hive_hash(DATE'2017-01-01')", hash: 0, hive: 17167}
- {types: [double], values: [.nan], sql: "SELECT hash(CAST('NaN' AS DOUBLE))", hash: -1281358385}
`
	for name, text := range map[string]string{
		"list":    body,
		"mapping": "spark_version: 3.5.3\nvectors:\n" + indent(body),
	} {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			path := filepath.Join(t.TempDir(), "spark-3.5-vectors.yaml")
			if err := os.WriteFile(path, []byte(text), 0o600); err != nil {
				t.Fatal(err)
			}
			vs := readSparkVectors(t, path)
			if len(vs) != 5 {
				t.Fatalf("read %d vectors, want 5", len(vs))
			}
			for _, v := range vs {
				if v.Hash == 0 { // the Hive-only entry: fill in its Murmur3 hash
					row, err := sparkRow(v)
					if err != nil {
						t.Fatal(err)
					}
					v.Hash = Murmur3(row)
				}
				checkSparkVector(t, Options{}, v)
			}
		})
	}
}

func indent(s string) string {
	return "  " + strings.ReplaceAll(strings.TrimSpace(s), "\n", "\n  ") + "\n"
}
