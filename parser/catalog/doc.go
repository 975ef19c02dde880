// Package catalog reads and writes bucketlint's catalog YAML: the tables that live in a
// metastore (Hive, Glue, Unity) and that no file of a repository declares, written down once
// so that rules can reason about them. A catalog is any YAML file whose top level has a
// "bucketlint" key:
//
//	bucketlint:
//	  version: 1
//	tables:
//	  - name: sales.orders            # lower case, as qualified as queries name it
//	    format: parquet               # data source: parquet, orc, delta, hive, …
//	    columns:
//	      - {name: order_id, type: bigint}
//	      - {name: customer_id, type: bigint}
//	      - {name: dt, type: date}
//	    partitionColumns: [dt]
//	    bucket:                       # absent: not bucketed
//	      numBuckets: 16
//	      columns: [customer_id]
//	      sortColumns: [customer_id]  # optional
//	    location: s3://lake/sales/orders
//	    sizeInBytes: 412316860416     # optional statistics
//	    rowCount: 1200000000
//	    fileCount: 4096
//	    hive: false                   # optional: a Hive-serde table (STORED AS …)
//
// Read decodes with unknown keys rejected: a misspelt key is an error at its file:line:column,
// never silently ignored. Write produces the same format, so `bucketlint tables --format yaml`
// turns a repository's DDL and DESCRIBE output into a catalog a user can commit.
//
// It sits above plan and parser/perr in the dependency order; go.yaml.in/yaml/v3 stays inside.
package catalog
