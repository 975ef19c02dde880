//go:build engine

package main

import (
	"flag"
	"fmt"
	"strings"

	"github.com/bucketlint/bucketlint/engine/hash"
	"github.com/bucketlint/bucketlint/engine/store"
	"github.com/bucketlint/bucketlint/engine/verify"
	"github.com/bucketlint/bucketlint/parser/sql"
	"github.com/bucketlint/bucketlint/plan"
	"github.com/bucketlint/bucketlint/report"
)

// layoutOptions are the flags of `verify --layout DIR`.
type layoutOptions struct {
	dir, tableSpec, bucketColumns, sortColumns, partitionColumns, types string
	buckets, limit                                                      int
	hive                                                                bool
	// parser reads --table-spec; nil until first needed.
	parser *sql.Parser
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
	if o.hive {
		l.Bucketing = store.HiveBucketing
	}
	if o.tableSpec != "" {
		t, err := o.specTable()
		if err != nil {
			return "", nil, l, err
		}
		name = t.Name
		l.BucketColumns, l.Buckets, l.SortColumns = t.Buckets().Columns, t.Buckets().NumBuckets, t.Buckets().SortColumns
		l.PartitionColumns = t.PartitionColumns
		if t.Hive {
			l.Bucketing = store.HiveBucketing
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

// specTable reads --table-spec with the SQL parser; the table must be bucketed.
func (o *layoutOptions) specTable() (*plan.Table, error) {
	if o.parser == nil {
		p, err := sql.New()
		if err != nil {
			return nil, err
		}
		o.parser = p
	}
	t, errs := o.parser.ParseTableSpec("--table-spec", o.tableSpec)
	if len(errs) > 0 {
		return nil, usagef("--table-spec %q: %s", o.tableSpec, errs[0].Msg)
	}
	if t.Buckets() == nil || t.Buckets().NumBuckets == 0 && t.Buckets().NumTemplate != "" {
		return nil, usagef("--table-spec %q: want CLUSTERED BY (cols) INTO n BUCKETS", o.tableSpec)
	}
	return t, nil
}

// runValidateLayout checks every row of a table directory against its bucket spec.
func runValidateLayout(opts *verifyOptions, s *streams) error {
	name, schema, layout, err := opts.layout.tableLayout()
	if err != nil {
		return err
	}
	c, err := verify.ValidateLayout(name, opts.layout.dir, schema, layout, opts.layout.limit)
	if err != nil {
		return err
	}
	if opts.format == "json" {
		err = report.WriteLayoutJSON(s.out, c)
	} else {
		err = report.WriteLayoutText(s.out, c)
	}
	if err != nil {
		return fmt.Errorf("writing output: %w", err)
	}
	if !c.OK() {
		return &verifyFailure{failed: 1, total: 1}
	}
	return nil
}
