package main

import (
	"context"
	"strings"
	"time"

	"github.com/bucketlint/bucketlint/engine/hash"
	"github.com/bucketlint/bucketlint/plan"
	"github.com/bucketlint/bucketlint/report"
)

// hashOptions are the flags and arguments of `bucketlint hash`.
type hashOptions struct {
	types        []hash.Type
	values       []string
	buckets      int
	hive         bool
	iceberg      bool
	sparkVersion string
	timeZone     string
	format       string
}

func parseHash(args []string, s *streams) (*hashOptions, error) {
	opts := &hashOptions{}
	var typeList string
	fs := newFlagSet("hash", "--type T[,T...] --buckets N [flags] [--] VALUE ...",
		"Print the hash Spark computes for one row and the bucket it lands in: Murmur3 with seed 42\n"+
			"and pmod by the bucket count, as a bucketed write and every shuffle do; --hive gives the\n"+
			"Hive hash of Hive-format bucketed tables, --iceberg the bucket transform of Iceberg tables\n"+
			"(bucket(N, col): Murmur3 with seed 0 over Iceberg's encoding of one value). One VALUE per\n"+
			"type, typed as you would write it\n"+
			"(123, SAV-100042, 2024-01-31, 2024-01-31 12:00:00, 12.50, true); \\N is SQL NULL.",
		s,
		"bucketlint hash --type int --buckets 16 42",
		"bucketlint hash --type string,date --buckets 200 SAV-100042 2024-01-31",
		"bucketlint hash --type 'decimal(10,2)' --buckets 8 --format json 12.50",
		"bucketlint hash --iceberg --type bigint --buckets 16 34")
	fs.StringVar(&typeList, "type", "", "comma-separated Spark SQL `types` of the row's columns (required)")
	fs.IntVar(&opts.buckets, "buckets", 0, "bucket `count` (required, at least 1)")
	fs.BoolVar(&opts.hive, "hive", false, "use Hive hash, as Hive-format bucketed tables do")
	fs.BoolVar(&opts.iceberg, "iceberg", false, "use Iceberg's bucket transform, as tables partitioned by bucket(N, col) do (one column)")
	fs.StringVar(&opts.sparkVersion, "spark-version", "3.5", "Spark `version` (before 3.2, -0.0 hashed by its own bits)")
	fs.StringVar(&opts.timeZone, "time-zone", "UTC", "session time `zone` for timestamps written without an offset")
	fs.StringVar(&opts.format, "format", "text", "output `format`: text or json")
	if err := parseFlags(fs, args); err != nil {
		return nil, err
	}
	if typeList == "" {
		return nil, usagef("--type is required")
	}
	for _, t := range plan.SplitTypeList(typeList) {
		ty, err := hash.ParseType(strings.TrimSpace(t))
		if err != nil {
			return nil, usagef("--type: %v", err)
		}
		opts.types = append(opts.types, ty)
	}
	if opts.buckets < 1 {
		return nil, usagef("--buckets must be at least 1")
	}
	if err := checkFormat(opts.format, "text", "json"); err != nil {
		return nil, err
	}
	if opts.hive && opts.iceberg {
		return nil, usagef("--hive and --iceberg exclude each other")
	}
	opts.values = fs.Args()
	if len(opts.values) != len(opts.types) {
		return nil, usagef("want one value per type: %d types, %d values", len(opts.types), len(opts.values))
	}
	if opts.iceberg && len(opts.types) != 1 {
		return nil, usagef("--iceberg hashes one value: Iceberg's bucket transform takes one column")
	}
	return opts, nil
}

func runHashCmd(_ context.Context, args []string, s *streams) error {
	opts, err := parseHash(args, s)
	if err != nil {
		return err
	}
	ho, err := hash.OptionsFor(opts.sparkVersion)
	if err != nil {
		return &usageError{msg: "--spark-version: " + err.Error()}
	}
	loc, err := time.LoadLocation(opts.timeZone)
	if err != nil {
		return usagef("--time-zone: unknown time zone %q", opts.timeZone)
	}
	values := make([]hash.Value, len(opts.types))
	for i, t := range opts.types {
		if values[i], err = hash.ParseValueIn(t, opts.values[i], loc); err != nil {
			return &usageError{msg: err.Error()}
		}
	}
	var h int32
	var bucket int
	fn := "murmur3"
	switch {
	case opts.iceberg:
		fn = "iceberg"
		if h, err = hash.IcebergHash(values[0]); err != nil {
			return &usageError{msg: err.Error()}
		}
		bucket = hash.IcebergBucket(h, opts.buckets)
	case opts.hive:
		fn = "hive"
		h = ho.Hive(values)
		bucket = hash.HiveBucket(h, opts.buckets)
	default:
		h = ho.Murmur3(values)
		bucket = hash.Bucket(h, opts.buckets)
	}
	out := &report.Hash{Function: fn, Values: opts.values, Hash: h, Buckets: opts.buckets, Bucket: bucket}
	for i, t := range opts.types {
		out.Types = append(out.Types, t.String())
		out.Read = append(out.Read, values[i].String())
	}
	if opts.format == "json" {
		return report.WriteHashJSON(s.out, out)
	}
	return report.WriteHashText(s.out, out)
}
