package main

import (
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"

	"github.com/bucketlint/bucketlint/engine/hash"
	"github.com/bucketlint/bucketlint/engine/store"
	"github.com/bucketlint/bucketlint/engine/verify"
)

// layoutOptions are the flags of `verify --layout DIR`.
type layoutOptions struct {
	dir, tableSpec, bucketColumns, sortColumns, partitionColumns, types string
	buckets, limit                                                      int
	hive                                                                bool
}

func (o *layoutOptions) register(fs *flag.FlagSet) {
	fs.StringVar(&o.dir, "layout", "", "validate the bucketed table in `DIR` (read-only) instead of verifying advice")
	fs.StringVar(&o.tableSpec, "table-spec", "", "with --layout: the table's `spec`, \"db.t: parquet [PARTITIONED BY (p)] CLUSTERED BY (k) [SORTED BY (s)] INTO 8 BUCKETS\";\n"+
		"STORED AS … or \"db.t: hive …\" marks a Hive-format table (as --hive)")
	fs.StringVar(&o.bucketColumns, "bucket-columns", "", "with --layout: bucket `columns`, comma-separated (instead of --table-spec)")
	fs.IntVar(&o.buckets, "buckets", 0, "with --layout: bucket `count` (instead of --table-spec)")
	fs.StringVar(&o.sortColumns, "sort-columns", "", "with --layout: sort `columns`, comma-separated")
	fs.StringVar(&o.partitionColumns, "partition-columns", "", "with --layout: partition `columns`, comma-separated (typed string unless --types says)")
	fs.StringVar(&o.types, "types", "", "with --layout: column `types` of the bucket and partition columns, k:int,day:date")
	fs.IntVar(&o.limit, "limit", 10, "with --layout: misplaced rows to list")
	fs.BoolVar(&o.hive, "hive", false, "with --layout: the table is Hive-format (STORED AS PARQUET …), as Spark 3.3+ writes it: rows in\n"+
		"bucket pmod(HiveHash(k) & Int.MaxValue, n), the bucket id in a 00003_0_ file-name prefix")
}

var (
	specName      = regexp.MustCompile(`^\s*([A-Za-z0-9_.` + "`" + `]+)\s*:`)
	specClustered = regexp.MustCompile(`(?i)CLUSTERED\s+BY\s*\(([^)]*)\)`)
	specSorted    = regexp.MustCompile(`(?i)SORTED\s+BY\s*\(([^)]*)\)`)
	specBuckets   = regexp.MustCompile(`(?i)INTO\s+(\d+)\s+BUCKETS`)
	specParts     = regexp.MustCompile(`(?i)PARTITIONED\s+BY\s*\(([^)]*)\)`)
	// specHive marks a Hive-format table: STORED AS …, USING hive, or hive as the format.
	specHive = regexp.MustCompile(`(?i)\bSTORED\s+AS\b|\bUSING\s+hive\b|^[^:]*:\s*hive\b`)
)

func splitList(s string) []string {
	var out []string
	for _, p := range strings.Split(s, ",") {
		if p = strings.Trim(strings.TrimSpace(p), "`"); p != "" {
			out = append(out, p)
		}
	}
	return out
}

// tableLayout reads the layout and schema to validate from the flags.
func (o *layoutOptions) tableLayout() (_ string, _ store.Schema, _ store.Layout, err error) {
	name := "table"
	l := store.Layout{Buckets: o.buckets, BucketColumns: splitList(o.bucketColumns), SortColumns: splitList(o.sortColumns), PartitionColumns: splitList(o.partitionColumns)}
	if o.hive || specHive.MatchString(o.tableSpec) {
		l.Bucketing = store.HiveBucketing
	}
	if o.tableSpec != "" {
		if m := specName.FindStringSubmatch(o.tableSpec); m != nil {
			name = strings.Trim(m[1], "`")
		}
		m := specClustered.FindStringSubmatch(o.tableSpec)
		n := specBuckets.FindStringSubmatch(o.tableSpec)
		if m == nil || n == nil {
			return "", nil, l, usagef("--table-spec %q: want CLUSTERED BY (cols) INTO n BUCKETS", o.tableSpec)
		}
		l.BucketColumns = splitList(m[1])
		if l.Buckets, err = strconv.Atoi(n[1]); err != nil {
			return "", nil, l, usagef("--table-spec %q: bucket count: %v", o.tableSpec, err)
		}
		if m := specSorted.FindStringSubmatch(o.tableSpec); m != nil {
			l.SortColumns = splitList(m[1])
		}
		if m := specParts.FindStringSubmatch(o.tableSpec); m != nil {
			l.PartitionColumns = splitList(m[1])
		}
	}
	if l.Buckets <= 0 || len(l.BucketColumns) == 0 {
		return "", nil, l, usagef("--layout: want --table-spec, or --bucket-columns and --buckets")
	}
	types := map[string]string{}
	for _, kv := range splitList(o.types) {
		k, v, ok := strings.Cut(kv, ":")
		if !ok {
			return "", nil, l, usagef("--types %q: want column:type, comma-separated", o.types)
		}
		types[strings.ToLower(strings.TrimSpace(k))] = strings.TrimSpace(v)
	}
	var schema store.Schema
	add := func(c, fallback string) error {
		if schema.Index(c) >= 0 {
			return nil
		}
		t, ok := types[strings.ToLower(c)]
		if !ok {
			if fallback == "" {
				return usagef("--types: want the type of column %s (for example --types %s:int)", c, c)
			}
			t = fallback
		}
		typ, err := hash.ParseType(t)
		if err != nil {
			return usagef("--types %s:%s: %v", c, t, err)
		}
		schema = append(schema, store.Column{Name: c, Type: typ})
		return nil
	}
	for _, c := range l.BucketColumns {
		if err := add(c, ""); err != nil {
			return "", nil, l, err
		}
	}
	for _, c := range l.PartitionColumns {
		if err := add(c, "string"); err != nil {
			return "", nil, l, err
		}
	}
	// A sorted table is not checked for its order here; its sort columns are not read.
	l.SortColumns = nil
	return name, schema, l, nil
}

// layoutJSON is `verify --layout --format json`.
type layoutJSON struct {
	Table   string   `json:"table"`
	Dir     string   `json:"dir"`
	Buckets int      `json:"buckets"`
	Columns []string `json:"columns"`
	// Bucketing is "spark" (Murmur3, datasource tables) or "hive" (HiveHash, Hive-format).
	Bucketing  string          `json:"bucketing"`
	Files      int64           `json:"files"`
	Rows       int64           `json:"rows"`
	Misplaced  int64           `json:"misplaced"`
	First      []misplacedJSON `json:"first"`
	OutOfRange []string        `json:"outOfRange"`
	OK         bool            `json:"ok"`
	// hiveNamed is set when Murmur3 validation failed on files named as Spark names the
	// files of Hive-format tables (00003_0_…): the text output then suggests --hive.
	hiveNamed bool
}

type misplacedJSON struct {
	File       string `json:"file"`
	Row        int64  `json:"row"`
	FileBucket int    `json:"fileBucket"`
	Bucket     int    `json:"bucket"`
	Key        string `json:"key"`
}

// runValidateLayout checks every row of a table directory against its bucket spec.
func runValidateLayout(opts *verifyOptions, s *streams) error {
	name, schema, layout, err := opts.layout.tableLayout()
	if err != nil {
		return err
	}
	v, err := verify.ValidateLayout(opts.layout.dir, schema, layout, opts.layout.limit)
	if err != nil {
		return err
	}
	j := layoutJSON{
		Table: name, Dir: opts.layout.dir, Buckets: layout.Buckets, Columns: layout.BucketColumns, Bucketing: layout.Bucketing.String(), Files: v.Files, Rows: v.Rows,
		Misplaced: v.Misplaced, First: []misplacedJSON{}, OutOfRange: append([]string{}, v.OutOfRange...), OK: v.OK(),
	}
	hive := store.NewHiveBucketParser()
	j.hiveNamed = layout.Bucketing == store.SparkBucketing && len(v.First) > 0
	for _, m := range v.First {
		if _, ok := hive.Bucket(filepath.Base(m.File)); !ok {
			j.hiveNamed = false
		}
		file := m.File
		if rel, err := filepath.Rel(opts.layout.dir, file); err == nil {
			file = filepath.ToSlash(rel)
		}
		j.First = append(j.First, misplacedJSON{File: file, Row: m.Row, FileBucket: m.FileBucket, Bucket: m.Bucket, Key: m.Key})
	}
	if opts.format == "json" {
		enc := json.NewEncoder(s.out)
		enc.SetIndent("", "  ")
		err = enc.Encode(j)
	} else {
		err = writeLayoutText(s.out, &j)
	}
	if err != nil {
		return fmt.Errorf("writing output: %w", err)
	}
	if !j.OK {
		return &verifyFailure{failed: 1, total: 1}
	}
	return nil
}

func writeLayoutText(w io.Writer, j *layoutJSON) error {
	var b strings.Builder
	mark := "✓"
	if !j.OK {
		mark = "✗"
	}
	fmt.Fprintf(&b, "%s %s: CLUSTERED BY (%s) INTO %d BUCKETS", mark, j.Table, strings.Join(j.Columns, ", "), j.Buckets)
	if j.Bucketing == store.HiveBucketing.String() {
		b.WriteString(" (Hive-format: HiveHash buckets)")
	}
	b.WriteByte('\n')
	fmt.Fprintf(&b, "  %s files, %s rows, %s misplaced\n", count(j.Files), count(j.Rows), count(j.Misplaced))
	for _, m := range j.First {
		fmt.Fprintf(&b, "  %s row %d: bucket %d by its key (%s), but the file name says %d\n", m.File, m.Row, m.Bucket, m.Key, m.FileBucket)
	}
	if j.hiveNamed {
		b.WriteString("  the files are named as Spark names those of Hive-format tables (00003_0_…): if the table is\n" +
			"  STORED AS …, validate it with --hive or STORED AS in --table-spec\n")
	}
	for _, f := range j.OutOfRange {
		if j.Bucketing == store.HiveBucketing.String() {
			fmt.Fprintf(&b, "  %s: bucket id not below %d; Hive-aware readers such as Trino reject the table\n", f, j.Buckets)
			continue
		}
		fmt.Fprintf(&b, "  %s: bucket id not below %d; Spark never reads it\n", f, j.Buckets)
	}
	_, err := io.WriteString(w, b.String())
	return err
}
